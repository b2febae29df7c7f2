flow.guard("target", function(op, stacks, ctx)
  error("no position here", 0)
end)
