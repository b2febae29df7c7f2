flow.guard("target", function(op, stacks, ctx)
  error(nil)
end)
