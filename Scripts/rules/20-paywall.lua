-- The paywall: the editor is a premium feature.
--
--   * Opening the editor without premium shows the paywall as a full-screen cover instead.
--   * Premium users never see the paywall again.

local function opensScreen(op)
  return op.kind ~= "popTo" -- popTo names a screen that is already open
end

flow.guard("editor", function(op, stacks, ctx)
  if opensScreen(op) and not facts.isPremium then
    return flow.redirect("fullScreenCover", "paywall", "premium required")
  end
end)

flow.guard("paywall", function(op, stacks, ctx)
  if facts.isPremium then
    return false, "already premium"
  end
end)
