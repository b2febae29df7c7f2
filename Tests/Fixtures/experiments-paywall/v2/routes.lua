-- v2 of the experiments-paywall fixture (its parent's routes.lua, one change in the annualFirst arm).
return {
  root = "home",
  routes = {
    home = { opens = { "setRoot" } },
    editor = { opens = { "push" } },
    paywall = { opens = { "sheet" } },
    annualOffer = { opens = { "sheet" } },
    tour = { opens = { "push" } },
  },
  facts = { isPremium = false, isKid = false },
  experiments = {
    paywallStyle = { variants = { control = 50, annualFirst = 50 }, salt = "2026-12" },
    onboarding = { variants = { tour = 20, classic = 20 }, salt = "2026-12" },
  },
}
