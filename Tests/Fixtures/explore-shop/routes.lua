-- A small shop's rules with five planted mistakes that flow tests and `flowstack check` miss,
-- and `flowstack explore` finds (Tests/FlowTestingTests/Explore, Tests/FlowStackCLITests).
return {
  root = "home",
  routes = {
    home = {},
    cart = {},
    checkout = {},
    library = {},
    giftCard = {},
    suspended = {},
    refund = {},
    orders = {},
  },
  dialogs = { "signInRequired" },
  facts = {
    isLoggedIn = false,
    isPremium = false,
    isBanned = false,
    refundPending = false,
    tier = "free",
  },
  explore = {
    facts = { tier = { "free", "pro" } },
  },
}
