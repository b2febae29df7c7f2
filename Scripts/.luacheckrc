-- luacheck configuration for a FlowStack project, written by `flowstack types --luacheck`.
-- Run `luacheck .` in the project's directory, or `luacheck <project> --config <project>/.luacheckrc`
-- from the directory that holds the project (the patterns below match from either place; luacheck
-- reads a .luacheckrc only from the directory it runs in, so from elsewhere --config is needed).
std = "lua54"
max_line_length = false

-- The LuaLS annotations `flowstack types` writes declare globals on purpose: not linted.
exclude_files = { "**/flowstack-types.lua" }

-- Rules scripts: flow, facts and host are FlowStack's; helpers they define at the top are allowed.
files["**/rules/**/*.lua"] = {
  allow_defined_top = true,
  unused_args = false, -- rule callbacks take (op, stacks, ctx) by contract
  read_globals = {
    flow = { fields = { precondition = {}, guard = {}, dialog_guard = {}, redirect = {}, op = {}, deeplink = {}, on_facts_changed = {}, audience = {}, style = { fields = { screen = {}, stack = {}, modal = {} } } } },
    facts = { other_fields = true },
    host = { fields = { confirmDiscard = {}, requestPhotoAccess = {} }, other_fields = true },
  },
}

-- Flow scripts (tests): busted's names, then FlowStack's.
files["**/flows/**/*.lua"] = {
  std = "+busted",
  read_globals = {
    "describe", "it", "pending", "before_each", "after_each", "before_all", "after_all", "setup", "teardown", "expect", "spy",
    app = { fields = { reset = {}, facts = {}, experiments = {}, exposures = {}, host = {}, wait = {}, advance = {}, calls = {}, scriptErrors = {}, reload = {}, generation = {} } },
    router = { fields = { setRoot = {}, setRootAsync = {}, push = {}, pushAsync = {}, pushMany = {}, pushManyAsync = {}, pushRemovingPrevious = {}, pushRemovingPreviousAsync = {}, replaceCurrent = {}, replaceCurrentAsync = {}, replacePath = {}, replacePathAsync = {}, pop = {}, popAsync = {}, popToRoot = {}, popToRootAsync = {}, popTo = {}, popToAsync = {}, sheet = {}, sheetAsync = {}, fullScreenCover = {}, fullScreenCoverAsync = {}, dismiss = {}, dismissAsync = {}, dismissAll = {}, dismissAllAsync = {}, selectTab = {}, selectTabAsync = {}, userPop = {}, userDismiss = {}, showDialog = {}, showDialogAsync = {}, hideDialog = {}, clearDialogs = {}, dialog = {}, queuedDialogCount = {}, top = {}, stacks = {}, tab = {}, tabs = {}, history = {}, style = {}, open = {}, pendingLink = {}, resumePendingLink = {}, pendingLinkTimeout = { read_only = false }, pendingNavigation = {}, resumePendingNavigation = {}, resumePendingNavigationAsync = {}, cancelPendingNavigation = {} } },
    facts = { other_fields = true },
  },
}

-- Explore files (invariants for `flowstack explore`): FlowStack's names, nothing else.
files["**/explore/**/*.lua"] = {
  read_globals = { "invariant" },
}

-- The manifest returns a table; nothing else.
files["**/routes.lua"] = {}
