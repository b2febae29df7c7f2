-- Playing shows.

-- Offline, only downloads play; the offline dialog says so.
flow.precondition("push", function(op, stacks, ctx)
  if facts.isOffline and op.route.name ~= "downloadsHome" and op.route.name ~= "settings" then
    return flow.redirect("dialog", "offline", "you are offline")
  end
end)

-- The offline dialog is shown once: another request for it while it is visible is ignored.
flow.dialog_guard("offline", function(d, ctx)
  if d.policy ~= "ignoreIfVisible" then
    return flow.redirect("dialog", "offline", "one offline notice", "ignoreIfVisible")
  end
end)

-- The player needs a paid account (or the kids' profile) and, on cellular, a confirmation.
flow.guard("player", function(op, stacks, ctx)
  if not facts.isPaid and not facts.isKidsProfile then
    return flow.redirect("sheet", "paywall", "subscribe to watch")
  end
  if not facts.hasDownloads and not host.confirmCellular() then
    return false, "streaming over cellular declined"
  end
end)

-- Kids' profiles pass the parental lock first when a PIN is set.
flow.guard("episode", function(op, stacks, ctx)
  if facts.isKidsProfile and facts.parentalPinSet and not host.requestPin() then
    return flow.redirect("sheet", "parentalLock", "enter the PIN")
  end
end)

-- The parental lock only exists with a PIN.
flow.guard("parentalLock", function(op, stacks, ctx)
  if not facts.parentalPinSet then
    return false, "no PIN set"
  end
end)

-- Downloads need a signed-in person; the limit is three without paying.
flow.guard("downloadsHome", function(op, stacks, ctx)
  if op.kind ~= "selectTab" and op.kind ~= "popTo" and not facts.isLoggedIn then
    return false, "sign in to download"
  end
end)

-- Autoplay asks for a rating after an episode.
flow.dialog_guard("ratingPrompt", function(d, ctx)
  if not facts.autoplay then
    return false, "no rating without autoplay"
  end
end)

-- Without paying, the download limit dialog becomes the upgrade prompt.
flow.dialog_guard("downloadLimit", function(d, ctx)
  if not facts.isPaid then
    return flow.redirect("dialog", "upgradePrompt", "upgrade for more downloads")
  end
end)

-- Search results are pushed on the search tab only.
flow.guard("searchResults", function(op, stacks, ctx)
  if ctx.tab ~= "search" then
    return false, "results belong to the search tab"
  end
end)

-- A show opens from a feed or search, not over the player.
flow.guard("show", function(op, stacks, ctx)
  local front = stacks[#stacks]
  if front.presentation == "fullScreenCover" then
    return false, "close the player first"
  end
end)
