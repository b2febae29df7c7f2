-- Properties every reachable state of the shop must have.

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

-- The root stack always comes first (holds everywhere: never reported).
invariant("root stack first", function(s)
  return s.stacks[1].presentation == "root"
end)
