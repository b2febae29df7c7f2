-- A streaming app: four tabs, 12 routes, 5 dialogs, 8 facts and 3 host functions, explored
-- at the default bounds under every combination of facts and host answers (no pins):
-- `flowstack explore .`; v2/ is the next version of its rules (`flowstack diff . v2`).
return {
  tabs = {
    { name = "home", root = "homeFeed" },
    { name = "search", root = "searchHome" },
    { name = "downloads", root = "downloadsHome" },
    { name = "profile", root = "profileHome" },
  },
  routes = {
    homeFeed = {},
    searchHome = {},
    downloadsHome = {},
    profileHome = {},
    show = { opens = { "push" } },
    episode = { opens = { "push" } },
    player = { opens = { "fullScreenCover" } },
    login = { opens = { "sheet" } },
    paywall = { opens = { "sheet" } },
    settings = { opens = { "push" } },
    parentalLock = { opens = { "sheet" } },
    searchResults = { opens = { "push" } },
  },
  dialogs = { "offline", "upgradePrompt", "signInRequired", "ratingPrompt", "downloadLimit" },
  facts = {
    isLoggedIn = false,
    isPaid = false,
    isOffline = false,
    isKidsProfile = false,
    hasDownloads = false,
    parentalPinSet = false,
    trialUsed = false,
    autoplay = false,
  },
  explore = {
    hostAnswers = {
      requestPin = { true, false },
      confirmCellular = { true, false },
      checkEntitlement = { true, false },
    },
  },
}
