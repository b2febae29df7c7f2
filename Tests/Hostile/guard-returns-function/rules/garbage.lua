flow.guard("target", function(op, stacks, ctx)
  return function() return true end
end)
