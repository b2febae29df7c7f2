-- A tabbed app: a feed, a search and a profile tab, each with its own stack. The profile tab
-- needs a signed-in person; a rule answers a signed-out tap with the sign-in sheet.
-- (Flow tests of tabs: flows/tabs.lua; Tests/FlowTestingTests/Flows runs them.)
return {
  tabs = {
    { name = "feed", root = "feedHome" },
    { name = "search", root = "searchHome" },
    { name = "profile", root = "profileHome" },
  },
  routes = {
    feedHome = {},
    post = { params = { id = "string" } },
    comments = { params = { id = "string" } },
    searchHome = {},
    results = { params = { query = "string" } },
    profileHome = {},
    settings = {},
    signIn = {},
  },
  facts = { isLoggedIn = false },
  links = { schemes = { "tabsapp" } },
}
