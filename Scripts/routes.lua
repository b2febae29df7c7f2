-- The route manifest of the example app (docs/lua-surface.md, section 2).
-- Every route, dialog and fact used by Scripts/rules and Scripts/flows is declared here:
-- a name that is not is an error, with a "did you mean" suggestion.
return {
  -- The tab bar (docs/lua-surface.md, section 2), in its order; home is selected at start.
  -- Home starts on the splash screen (the root of every fresh flow test): the launch screens and then home replace its root
  -- (setRoot, rules/10-auth.lua); the other tabs are for signed-in users.
  tabs = {
    { name = "home", root = "splash" },
    { name = "projects", root = "projects" },
    { name = "profile", root = "profile" },
  },

  routes = {
    -- Launch and account.
    -- `opens`: the operations the app shows a route with (explore and diff try only those).
    splash = { opens = { "setRoot" } },
    onboarding = { opens = { "setRoot" } },
    login = { opens = { "setRoot", "sheet" } },

    -- The signed-in app.
    home = { opens = { "setRoot" } },
    projects = { opens = { "push" } },
    detail = { params = { id = "string" }, opens = { "push" } },
    editor = { params = { id = "string" }, opens = { "push" } }, -- premium only (rules/20-paywall.lua)
    settings = { opens = { "push" } },
    profile = { opens = { "push" } },
    orders = { opens = { "push" } }, -- signed out, opening it asks to sign in first and opens it afterwards (rules/10-auth.lua)

    -- Presented screens.
    paywall = { opens = { "fullScreenCover" } },
    photoPicker = { opens = { "sheet" } },      -- behind the photo permission prompt (rules/30-permissions.lua)
    permissionDenied = { opens = { "sheet" } }, -- shown when the prompt is refused
    promo = {},            -- a sheet, never pushed (rules/50-navigation.lua; no `opens`: explore tries every way)
    checkout = { opens = { "push" } },         -- the purchase, pushed on the paywall (no rating prompt here, rules/90-dialogs.lua)
  },

  dialogs = {
    "networkError", "sessionExpired", "deleteConfirmation",
    "loginRequired",  -- answers a private screen opened while signed out (rules/10-auth.lua)
    "ratingPrompt",   -- never during checkout nor on top of the paywall (rules/90-dialogs.lua)
    "inviteAccepted", -- the end of an invite link (rules/80-links.lua)
  },

  -- Names and default values. Swift sets them in the app; flows set them with
  -- app.reset{ facts = ... } and app.facts{ ... }.
  facts = {
    isLoggedIn = false,
    isPremium = false,
    hasSeenOnboarding = false,
    hasUnsavedChanges = false,
    maxPushDepth = 6, -- how many screens may be pushed on one stack
  },

  -- Which deep links the app accepts (rules/80-links.lua maps them to screens).
  links = { schemes = { "myapp", "https" }, hosts = { "example.com" } },

  -- What `flowstack explore Scripts` tries besides every route, operation and boolean fact
  -- (docs/exploring.md): both answers of the two system prompts the rules ask for, and one
  -- link of each kind rules/80-links.lua handles (and one it leaves unhandled).
  explore = {
    -- The smallest push limit: on the explored stacks (two screens each, see docs/exploring.md)
    -- the shipped limit of 6 never bites, 1 does, and is otherwise the same.
    facts = { maxPushDepth = { 1 } },
    hostAnswers = {
      requestPhotoAccess = { true, false }, -- rules/30-permissions.lua
      confirmDiscard = { true, false },     -- rules/40-editing.lua (asked by async navigations only)
    },
    urls = {
      "myapp://projects/42", "myapp://projects/42/edit", "https://example.com/invites/welcome",
      "myapp://settings", "myapp://promo/spring", "myapp://promo/",
    },
  },
}
