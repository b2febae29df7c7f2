-- The shop's screens.

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
  if op.kind == "sheet" or op.kind == "fullScreenCover" then
    return false, "product pages are pushed"
  end
end)

-- Orders and the account need a signed-in person.
flow.guard("orders", function(op, stacks, ctx)
  if not facts.isLoggedIn then
    return flow.redirect("dialog", "signInRequired", "sign in to see your orders")
  end
end)

flow.guard("account", function(op, stacks, ctx)
  if not facts.isLoggedIn then
    return flow.redirect("dialog", "signInRequired", "sign in to open your account")
  end
end)
