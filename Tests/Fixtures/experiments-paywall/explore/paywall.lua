-- A kids profile never meets a paywall, in any arm of any experiment.
invariant("no paywall for kids", function(s)
  if not s.facts.isKid then return true end
  for _, stack in ipairs(s.stacks) do
    for _, route in ipairs(stack.routes) do
      if route.name == "paywall" or route.name == "annualOffer" then return false end
    end
  end
  return true
end)

-- The editor is for premium users only.
invariant("the editor is premium-only", function(s)
  if s.facts.isPremium then return true end
  for _, stack in ipairs(s.stacks) do
    for _, route in ipairs(stack.routes) do
      if route.name == "editor" then return false end
    end
  end
  return true
end)
