-- A project with planted mistakes: `flowstack check` must report every one in one run
-- (Tests/FlowStackCLITests/TypoProjectTests.swift lists them).
return {
  root = "splsh",
  routes = {
    splash = {}, home = {}, login = {}, card = {}, transfer = {},
    detail = { params = { id = "string" } },
  },
  dialogs = { "networkError" },
  facts = { isLoggedIn = false, isPremium = false },
  fatcs = {},
}
