-- The shop's screens, v2: orders open to guests, product pages as covers, settings closed to banned people.

-- Gift cards are for premium members. (Planted: the fact is a boolean, compared with a
-- string: no combination of facts opens the gift card.)
flow.guard("giftCard", function(op, stacks, ctx)
  if facts.isPremium == "yes" then
    return true
  end
  return false, "gift cards are for premium members"
end)

-- The library lists what the account bought. (Planted: premium while signed out leaves
-- `account` nil, and the guard raises.)
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

-- (Planted: meant `not facts.isBanned`: as written, banned people are sent home, and home
-- sends them back: a loop that only exists while isBanned.)
flow.guard("suspended", function(op, stacks, ctx)
  if op.kind ~= "popTo" and facts.isBanned then
    return flow.redirect("setRoot", "home", "ban lifted")
  end
end)

-- A product page is pushed, never presented.
flow.guard("product", function(op, stacks, ctx)
  if op.kind == "sheet" then
    return false, "product pages are pushed"
  end
end)

-- The account needs a signed-in person.
-- v2: guests see their orders too (the orders guard is gone).

flow.guard("account", function(op, stacks, ctx)
  if not facts.isLoggedIn then
    return flow.redirect("dialog", "signInRequired", "sign in to open your account")
  end
end)

-- v2: banned people cannot change settings.
flow.guard("settings", function(op, stacks, ctx)
  if facts.isBanned then
    return false, "settings are closed while suspended"
  end
end)
