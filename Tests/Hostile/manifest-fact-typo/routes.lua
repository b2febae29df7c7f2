return {
  root = "home",
  routes = { home = {}, editor = {}, paywall = {} },
  facts = { isPremium = false },
}
