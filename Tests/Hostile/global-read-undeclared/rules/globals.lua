flow.guard("target", function(op, stacks, ctx)
  if isPremium then return true end
  return false, "not premium"
end)
