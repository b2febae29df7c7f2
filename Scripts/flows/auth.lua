-- Signing in: the login gate, onboarding first, and the session-expired dialog
-- (rules/10-auth.lua).

describe("launch", function()
  -- No before_each: every test starts from the manifest's root with the default facts.

  it("starts on the splash screen with one root stack", function()
    expect(router.top()).to_equal({ name = "splash" })
    local stacks = router.stacks()
    expect(#stacks).to_be(1)
    expect(stacks[1].presentation).to_be("root")
    expect(stacks[1].routes).to_equal({ { name = "splash" } })
  end)

  it("sends a first launch from home to login, then on to onboarding (a chained redirect)", function()
    local r = router.setRoot("home")
    expect(r.applied).to_be(false)
    expect(r.kind).to_be("setRoot")
    expect(r.reason).to_be("login required")
    -- home -> login: the login gate redirects, and the redirect is checked by the rules...
    expect(r.redirect.kind).to_be("setRoot")
    expect(r.redirect.applied).to_be(false)
    expect(r.redirect.reason).to_be("onboarding not finished")
    -- ... login -> onboarding: the onboarding guard redirects once more, and that one applies.
    expect(r.redirect.redirect.kind).to_be("setRoot")
    expect(r.redirect.redirect.applied).to_be(true)
    expect(r.redirect.redirect.redirect).to_be_nil()
    expect(router.top()).to_equal({ name = "onboarding" })
  end)

  it("lets signed-out users reach the public screens", function()
    expect(router.setRoot("onboarding").applied).to_be(true)
    app.facts{ hasSeenOnboarding = true }
    local r = router.setRoot("login")
    expect(r).to_equal({ applied = true, kind = "setRoot" })
    expect(router.top()).to_equal({ name = "login" })
  end)
end)

describe("signed out", function()
  before_each(function()
    app.reset{ root = "login", facts = { isLoggedIn = false, hasSeenOnboarding = true } }
  end)

  it("redirects a new root to login", function()
    local r = router.setRoot("home")
    expect(r.applied).to_be(false)
    expect(r.redirect.kind).to_be("setRoot")
    expect(r.redirect.applied).to_be(true)
    expect(router.top()).to_equal({ name = "login" })
  end)

  it("blocks pushing a private screen with a reason and the login-required dialog", function()
    local r = router.push("settings")
    expect(r).to_equal({
      applied = false, kind = "push", reason = "login required",
      redirect = { kind = "dialog", dialog = "loginRequired", policy = "replace", applied = true },
    })
    expect(router.top()).to_equal({ name = "login" })
    expect(router.dialog()).to_be("loginRequired")
  end)

  it("blocks presenting a private screen", function()
    local r = router.sheet("profile")
    expect(r.applied).to_be_falsy()
    expect(r.reason).to_be("login required")
    expect(#router.stacks()).to_be(1)
  end)

  it("lets the app in once the user has signed in", function()
    app.facts{ isLoggedIn = true }
    local r = router.setRoot("home")
    expect(r.applied).to_be_truthy()
    expect(r.redirect).to_be_nil()
    expect(router.stacks()[1].routes).to_equal({ { name = "home" } })
  end)
end)

describe("signed in", function()
  before_each(function()
    app.reset{ root = "home", facts = { isLoggedIn = true, hasSeenOnboarding = true } }
  end)

  it("opens private screens", function()
    expect(router.push("settings")).to_equal({ applied = true, kind = "push" })
    expect(router.top()).to_equal({ name = "settings" })
  end)

  it("still shows onboarding to a user who skipped it", function()
    app.facts{ hasSeenOnboarding = false }
    local r = router.setRoot("home")
    expect(r.applied).to_be(false)
    expect(r.reason).to_be("onboarding not finished")
    expect(router.top()).to_equal({ name = "onboarding" })
  end)

  describe("when the session expires", function()
    before_each(function()
      router.showDialog("sessionExpired")
    end)

    it("blocks private screens behind the dialog", function()
      local r = router.push("profile")
      expect(r).to_equal({ applied = false, kind = "push", reason = "session expired" })
      expect(router.dialog()).to_be("sessionExpired")
    end)

    it("opens private screens again once the dialog is closed", function()
      router.hideDialog()
      expect(router.dialog()).to_be_nil()
      expect(router.push("profile").applied).to_be(true)
    end)

    it("still lets the app go back to login", function()
      app.facts{ isLoggedIn = false }
      local r = router.setRoot("login")
      expect(r.applied).to_be(true)
      expect(router.top()).to_equal({ name = "login" })
    end)
  end)
end)

-- A held navigation: pushing "orders" while signed out shows the login sheet and holds the
-- push (flow.redirect(..., { resume = true }) in rules/10-auth.lua); signing in runs it.
describe("orders after login", function()
  before_each(function()
    app.reset{ root = "onboarding", facts = { isLoggedIn = false, hasSeenOnboarding = true } }
  end)

  it("holds the push behind the login sheet and runs it once the person has signed in", function()
    local r = router.push("orders")
    expect(r.applied).to_be(false)
    expect(r.reason).to_be("sign in to see your orders")
    expect(r.redirect).to_equal({ applied = true, kind = "sheet" })
    expect(router.top()).to_equal({ name = "login" })
    local held = router.pendingNavigation()
    expect(held.kind).to_be("push")
    expect(held.route).to_equal({ name = "orders" })
    expect(held.redirect.kind).to_be("sheet")

    app.facts{ isLoggedIn = true }
    expect(router.pendingNavigation()).to_be_nil()
    expect(#router.stacks()).to_be(1)
    expect(router.top()).to_equal({ name = "orders" })
    expect(router.history()).to_match_steps{
      "push orders redirected: sign in to see your orders",
      "sheet login",
      "dismiss (resume)",
      "push orders (resume)",
    }
  end)

  it("keeps holding it while the person is still signed out, and forgets it when cancelled", function()
    router.push("orders")
    app.facts{ isPremium = true }
    expect(router.pendingNavigation().attempts).to_be(2)
    expect(router.top()).to_equal({ name = "login" })
    local resumed, why = router.resumePendingNavigation()
    expect(resumed).to_be(false)
    expect(why).to_contain("sign in to see your orders")
    expect(router.cancelPendingNavigation()).to_be(true)
    app.facts{ isLoggedIn = true }
    expect(router.top()).to_equal({ name = "login" })
  end)

  it("lets it go after ten minutes", function()
    router.push("orders")
    app.advance(600)
    expect(router.pendingNavigation()).to_be_nil()
  end)

  it("asks to sign in only for screens worth coming back to", function()
    local r = router.push("settings")
    expect(r.redirect.kind).to_be("dialog")
    expect(router.pendingNavigation()).to_be_nil()
  end)
end)
