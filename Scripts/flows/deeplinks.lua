-- Deep links (rules/80-links.lua): router.open(url), the link policy of routes.lua, plans
-- checked by the rules as one transaction, and links held until the rules allow them.

-- The route names of the selected tab's stack, root first.
local function rootNames()
  local out = {}
  for _, route in ipairs(router.stacks()[1].routes) do
    out[#out + 1] = route.name
  end
  return out
end

describe("deep links", function()
  describe("signed in", function()
    before_each(function()
      app.reset{ root = "home", facts = { isLoggedIn = true, hasSeenOnboarding = true } }
    end)

    it("opens a project from a custom-scheme link", function()
      local r = router.open("myapp://projects/42")
      expect(r.status).to_be("applied")
      expect(r.reason).to_be_nil()
      expect(r.result).to_equal({ applied = true, kind = "push" })
      expect(#r.steps).to_be(4) -- selectTab home, setRoot home, push projects, push detail
      expect(rootNames()).to_equal({ "home", "projects", "detail" })
      expect(router.top()).to_equal({ name = "detail", id = "42" })
    end)

    it("decodes percent-encoded parameters before the plan sees them", function()
      local r = router.open("myapp://projects/summer%20launch%2F2027")
      expect(r.status).to_be("applied")
      expect(router.top()).to_equal({ name = "detail", id = "summer launch/2027" })
    end)

    it("records the plan's operations with source deeplink", function()
      router.open("myapp://projects/42")
      local h = router.history()
      expect(#h).to_be(4)
      for _, entry in ipairs(h) do
        expect(entry.op.source).to_be("deeplink")
        expect(entry.applied).to_be(true)
      end
      expect(h[4].op.route).to_equal({ name = "detail", id = "42" })
    end)

    it("accepts https links to the declared host", function()
      expect(router.open("https://example.com/projects/7").status).to_be("applied")
      expect(router.top()).to_equal({ name = "detail", id = "7" })
    end)

    it("rejects other hosts and schemes, and changes nothing", function()
      local r = router.open("https://evil.example/projects/7")
      expect(r.status).to_be("rejected")
      expect(r.reason).to_be_truthy()
      expect(router.open("ftp://example.com/projects/7").status).to_be("rejected")
      expect(rootNames()).to_equal({ "home" })
      expect(router.history()).to_equal({})
    end)

    it("leaves links no pattern matches unhandled", function()
      local r = router.open("myapp://nowhere/at/all")
      expect(r.status).to_be("unhandled")
      expect(r.result).to_be_nil()
      expect(router.open("myapp://promo/").status).to_be("unhandled")
    end)

    it("opens the promo sheet for any campaign, with query items", function()
      local r = router.open("myapp://promo/spring?source=mail")
      expect(r.status).to_be("applied")
      expect(r.result.kind).to_be("sheet")
      expect(router.stacks()[2].routes).to_equal({ { name = "promo" } })
    end)

    it("closes every presentation for the settings link", function()
      router.sheet("promo")
      local r = router.open("myapp://settings")
      expect(r.status).to_be("applied")
      expect(#router.stacks()).to_be(1)
      expect(rootNames()).to_equal({ "home", "settings" })
    end)

    it("runs the plan as one transaction: a blocked step applies nothing", function()
      -- The editor is premium: its push redirects to the paywall, so nothing of the plan applies.
      router.push("projects")
      local r = router.open("myapp://projects/3/edit")
      expect(r.status).to_be("pending")
      expect(r.reason).to_contain("premium required")
      expect(r.result.applied).to_be(false)
      expect(r.result.kind).to_be("push")
      expect(r.result.redirect.kind).to_be("fullScreenCover")
      expect(r.result.redirect.applied).to_be(true)
      expect(rootNames()).to_equal({ "home", "projects" })
      expect(router.top()).to_equal({ name = "paywall" })
      expect(router.pendingLink()).to_be("myapp://projects/3/edit")
    end)

    it("opens a held link once the facts allow it", function()
      router.open("myapp://projects/3/edit")
      app.facts{ isPremium = true } -- the purchase: the held link is retried
      expect(router.pendingLink()).to_be_nil()
      expect(#router.stacks()).to_be(1)
      expect(rootNames()).to_equal({ "home", "detail", "editor" })
    end)
  end)

  describe("signed out", function()
    before_each(function()
      app.reset{ root = "login", facts = { hasSeenOnboarding = true } }
    end)

    it("holds the link and shows login instead", function()
      local r = router.open("myapp://projects/42")
      expect(r.status).to_be("pending")
      expect(r.reason).to_contain("login required")
      expect(router.pendingLink()).to_be("myapp://projects/42")
      expect(router.top()).to_equal({ name = "login" })
    end)

    it("follows the held link after signing in", function()
      router.open("myapp://projects/42")
      app.facts{ isLoggedIn = true }
      expect(router.pendingLink()).to_be_nil()
      expect(router.top()).to_equal({ name = "detail", id = "42" })
    end)

    it("keeps the link held while it is still blocked", function()
      router.open("myapp://projects/42")
      local r = router.resumePendingLink()
      expect(r.status).to_be("pending")
      expect(router.pendingLink()).to_be("myapp://projects/42")
    end)

    it("holds one link at most: a newer one replaces it", function()
      router.open("myapp://projects/42")
      router.open("myapp://projects/7")
      expect(router.pendingLink()).to_be("myapp://projects/7")
      app.facts{ isLoggedIn = true }
      expect(router.top()).to_equal({ name = "detail", id = "7" })
    end)

    it("drops a held link after pendingLinkTimeout", function()
      expect(router.pendingLinkTimeout).to_be(600)
      router.pendingLinkTimeout = 60
      router.open("myapp://projects/42")
      app.advance(59)
      expect(router.pendingLink()).to_be("myapp://projects/42")
      app.advance(1)
      expect(router.pendingLink()).to_be_nil()
      expect(router.resumePendingLink()).to_be_nil()
    end)

    it("lets time pass in a test with app.wait", function()
      router.pendingLinkTimeout = 5
      router.open("myapp://projects/42")
      app.wait(5)
      expect(router.pendingLink()).to_be_nil()
    end)
  end)
end)
