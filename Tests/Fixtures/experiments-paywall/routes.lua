-- A paywall experiment with two arms (and an audience: kids profiles are never enrolled), and
-- an onboarding experiment that enrols 40% of units. The flows, `check`, `explore` and `diff`
-- tests of experiments use it (Tests/FlowTestingTests, Tests/FlowStackCLITests); `v2/` changes
-- the annualFirst arm only: free users reach the editor there (a planted mistake).
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
