flow.guard("target", function(op, stacks, ctx)
  os.execute("touch /tmp/flowstack-pwned")
end)
