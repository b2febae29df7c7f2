-- Authentication: who may go where.
--
--   * Signed-out users only reach the public screens (splash, onboarding, login).
--     Replacing the root with a private screen sends them to login instead; any other
--     way of opening a private screen is blocked with "login required" and answered with
--     the loginRequired dialog.
--   * Some screens are worth coming back to: pushing one while signed out shows the login
--     sheet and holds the push (flow.redirect with { resume = true }); once the person has
--     signed in (the isLoggedIn fact turns true), the sheet is dismissed and the push runs.
--   * While the "session expired" dialog is up, private screens cannot be opened.
--   * The projects and profile tabs are for signed-in users: tapping one signed out shows
--     the login sheet and holds the tap; once signed in, the tab opens.
--   * The launch screens and home replace the home tab's root only (setRoot elsewhere is
--     refused): the other tabs keep their own roots.
--   * Login and home both come after onboarding: a user who has not seen it yet is sent
--     there first (so a signed-out first launch goes home -> login -> onboarding).

local PUBLIC = { splash = true, onboarding = true, login = true }

-- The operation kinds that put a screen on screen (the others only remove screens).
local OPENING = {
  setRoot = true, push = true, pushMany = true, pushRemovingPrevious = true,
  replaceCurrent = true, replacePath = true, sheet = true, fullScreenCover = true,
}

-- The first private route an opening operation would show, or nil.
local function firstPrivateTarget(op)
  if not OPENING[op.kind] then return nil end
  local targets = op.routes or { op.route }
  for _, route in ipairs(targets) do
    if not PUBLIC[route.name] then return route end
  end
  return nil
end

-- The screens a push resumes after login (a held navigation), with the reason shown.
local RESUMES_AFTER_LOGIN = { orders = "sign in to see your orders" }

-- A dialog is a string id or a table with an `id` field.
local function dialogId(dialog)
  if type(dialog) == "table" then return dialog.id end
  return dialog
end

-- The login gate, for every kind of operation.
flow.precondition("*", function(op, stacks, ctx)
  if facts.isLoggedIn then
    return true
  end
  local private = firstPrivateTarget(op)
  if private == nil then
    return -- nothing private is opened: allow
  end
  print(string.format("auth: %s of %q needs a signed-in user (rules generation %s)",
    op.kind, private.name, tostring(ctx.generation)))
  if op.kind == "setRoot" then
    return flow.redirect("setRoot", "login", "login required")
  end
  if op.kind == "push" and RESUMES_AFTER_LOGIN[private.name] then
    return flow.redirect("sheet", "login", RESUMES_AFTER_LOGIN[private.name], { resume = true })
  end
  return flow.redirect("dialog", "loginRequired", "login required")
end)

-- Nothing private opens behind the "session expired" dialog.
flow.precondition("*", function(op, stacks, ctx)
  if dialogId(ctx.dialog) == "sessionExpired" and firstPrivateTarget(op) ~= nil then
    return false, "session expired"
  end
end)

-- Signed out, only the home tab opens; another tab waits for the sign-in.
flow.precondition("selectTab", function(op)
  if op.tab ~= "home" and not facts.isLoggedIn then
    return flow.redirect("sheet", "login", "sign in to see " .. op.tab, { resume = true })
  end
end)

-- setRoot belongs to the home tab.
flow.precondition("setRoot", function(op, stacks, ctx)
  if ctx.tab ~= "home" then
    return false, "only the home tab's root is replaced"
  end
end)

-- Onboarding comes first, before login and before home.
local function onboardingFirst(op)
  if OPENING[op.kind] and not facts.hasSeenOnboarding then
    return flow.redirect("setRoot", "onboarding", "onboarding not finished")
  end
end

flow.guard("login", onboardingFirst)
flow.guard("home", onboardingFirst)
