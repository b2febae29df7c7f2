-- Dialog rules (docs/lua-surface.md, section 4): which dialogs may interrupt the person, and when.
--
--   * The rating prompt never shows during checkout or on top of the paywall; while another
--     dialog is up it waits in the queue instead of replacing it.
--   * The login-required dialog (rules/10-auth.lua) is pointless once signed in.

-- Whether any stack shows `name`.
local function showing(stacks, name)
  for _, stack in ipairs(stacks) do
    for _, route in ipairs(stack.routes) do
      if route.name == name then return true end
    end
  end
  return false
end

flow.dialog_guard("ratingPrompt", function(dialog, stacks, ctx)
  if showing(stacks, "checkout") then
    return false, "no rating prompt during checkout"
  end
  if stacks[#stacks].routes[1].name == "paywall" then
    return false, "no rating prompt on top of the paywall"
  end
  if ctx.dialog ~= nil and dialog.policy ~= "queue" then
    -- The same dialog with another policy is shown without asking this rule again.
    return flow.redirect("dialog", "ratingPrompt", "another dialog is up: the rating prompt waits", "queue")
  end
end)

flow.dialog_guard("loginRequired", function(dialog, stacks, ctx)
  if facts.isLoggedIn then
    return false, "already signed in"
  end
end)
