-- A 12-route shop with four boolean facts, one dialog and five planted problems within two
-- steps of the root, found by `flowstack explore .` at its default bounds; v2/ is the next
-- version of its rules, which changes exactly three routes (`flowstack diff . v2`).
return {
  root = "home",
  routes = {
    home = {},
    catalog = {},
    product = {},
    cart = {},
    checkout = {},
    orders = {},
    library = {},
    giftCard = {},
    suspended = {},
    refund = {},
    account = {},
    settings = {},
  },
  dialogs = { "signInRequired" },
  facts = {
    isLoggedIn = false,
    isPremium = false,
    isBanned = false,
    refundPending = false,
  },
}
