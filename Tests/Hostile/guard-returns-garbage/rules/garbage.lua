flow.guard("target", function(op, stacks, ctx)
  return 42
end)
