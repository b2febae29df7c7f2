flow.guard("target", function(op, stacks, ctx)
  os.exit(1)
end)
