-- Signing in and paying.

-- The profile tab needs a signed-in person: a signed-out tap opens the login sheet.
flow.precondition("selectTab", function(op, stacks, ctx)
  if op.tab == "profile" and not facts.isLoggedIn then
    return flow.redirect("sheet", "login", "sign in to see your profile")
  end
end)

-- v2: settings open to guests (the settings guard is gone).

-- v2: searching is for paying people.
flow.precondition("selectTab", function(op, stacks, ctx)
  if op.tab == "search" and not facts.isPaid then
    return false, "search is for subscribers"
  end
end)

-- The login sheet is for signed-out people only.
flow.guard("login", function(op, stacks, ctx)
  if facts.isLoggedIn then
    return false, "already signed in"
  end
end)

-- The paywall is for people who have not paid; a used trial asks the store first.
flow.guard("paywall", function(op, stacks, ctx)
  if facts.isPaid then
    return false, "already paid"
  end
  if facts.trialUsed and not host.checkEntitlement() then
    return flow.redirect("dialog", "upgradePrompt", "the trial is over")
  end
end)
