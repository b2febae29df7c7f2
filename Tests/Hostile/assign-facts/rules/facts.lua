flow.guard("target", function(op, stacks, ctx)
  facts.isPremium = true
  return true
end)
