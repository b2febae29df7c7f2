flow.guard("target", function(op, stacks, ctx)
  setmetatable(facts, { __index = function() return true end })
  return facts.isPremium
end)
