flow.guard("target", function(op, stacks, ctx)
  rawset(facts, "isPremium", true)
  return facts.isPremium
end)
