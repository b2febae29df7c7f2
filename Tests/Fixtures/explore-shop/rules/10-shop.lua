-- The shop's rules.

-- Gift cards are for gold members. (Planted: the tiers are "free" and "pro": nobody is gold,
-- so no combination of facts opens the gift card.)
flow.guard("giftCard", function(op, stacks, ctx)
  if facts.tier == "gold" then
    return true
  end
  return false, "gift cards are for gold members"
end)

-- The library lists what the account bought. (Planted: a premium flag left from a stale
-- purchase while signed out makes `account` nil, and the guard raises.)
flow.guard("library", function(op, stacks, ctx)
  if facts.isPremium then
    local account = facts.isLoggedIn and { purchases = 3 } or nil
    if account.purchases == 0 then
      return false, "nothing bought yet"
    end
  end
end)

-- Banned people see the suspension notice instead of home.
flow.guard("home", function(op, stacks, ctx)
  if op.kind ~= "popTo" and facts.isBanned then
    return flow.redirect("setRoot", "suspended", "account suspended")
  end
end)

-- (Planted: meant `not facts.isBanned`: people whose ban ended go home. As written, it sends
-- banned people home, and home sends them back: a loop that only exists while isBanned.)
flow.guard("suspended", function(op, stacks, ctx)
  if op.kind ~= "popTo" and facts.isBanned then
    return flow.redirect("setRoot", "home", "ban lifted")
  end
end)
