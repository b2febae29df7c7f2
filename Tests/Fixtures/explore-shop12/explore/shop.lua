-- Nobody signed out ever sees the checkout.
invariant("no checkout signed out", function(s)
  if s.facts.isLoggedIn then return true end
  for _, stack in ipairs(s.stacks) do
    for _, route in ipairs(stack.routes) do
      if route.name == "checkout" then return false end
    end
  end
  return true
end)
