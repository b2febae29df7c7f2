-- The paywall (rules/20-paywall.lua): the editor is premium; free users get the paywall
-- as a full-screen cover instead.

local EDITOR = { name = "editor", id = "7" }

describe("paywall", function()
  before_each(function()
    app.reset{ root = "home", facts = { isLoggedIn = true, hasSeenOnboarding = true, isPremium = false } }
  end)

  describe("free user", function()
    it("is sent to the paywall instead of the editor", function()
      local r = router.push(EDITOR)
      expect(r.applied).to_be(false)
      expect(r.kind).to_be("push")
      expect(r.reason).to_be("premium required")
      expect(r.redirect.kind).to_be("fullScreenCover")
      expect(r.redirect.applied).to_be(true)
      expect(router.top()).to_equal({ name = "paywall" })
      local stacks = router.stacks()
      expect(#stacks).to_be(2)
      expect(stacks[2].presentation).to_be("fullScreenCover")
      expect(stacks[1].routes).to_equal({ { name = "home" } })
    end)

    it("gets the paywall even when the editor comes last in a pushMany", function()
      local r = router.pushMany{ { name = "detail", id = "7" }, EDITOR }
      expect(r.applied).to_be(false)
      expect(r.kind).to_be("pushMany")
      expect(r.redirect.kind).to_be("fullScreenCover")
      -- None of the pushMany applied.
      expect(router.stacks()[1].routes).to_equal({ { name = "home" } })
      expect(router.top()).to_equal({ name = "paywall" })
    end)

    it("gets the paywall when the editor would open in a sheet", function()
      local r = router.sheet(EDITOR)
      expect(r.applied).to_be(false)
      expect(r.kind).to_be("sheet")
      expect(r.redirect.kind).to_be("fullScreenCover")
      expect(#router.stacks()).to_be(2)
      expect(router.stacks()[2].presentation).to_be("fullScreenCover")
    end)

    it("opens the paywall through the async queue too", function()
      local r = router.fullScreenCoverAsync("paywall")
      expect(r).to_equal({ applied = true, kind = "fullScreenCover" })
      expect(router.top()).to_equal({ name = "paywall" })
    end)

    it("reaches the editor after buying premium", function()
      router.push(EDITOR)
      app.facts{ isPremium = true }
      expect(router.dismiss().applied).to_be(true)
      local r = router.push(EDITOR)
      expect(r.applied).to_be(true)
      expect(router.top()).to_equal(EDITOR)
    end)
  end)

  describe("premium user", function()
    before_each(function()
      app.facts{ isPremium = true }
    end)

    it("opens the editor directly", function()
      expect(router.push(EDITOR)).to_equal({ applied = true, kind = "push" })
      expect(router.top()).to_equal({ name = "editor", id = "7" })
    end)

    it("never sees the paywall again", function()
      local r = router.fullScreenCover("paywall")
      expect(r).to_equal({ applied = false, kind = "fullScreenCover", reason = "already premium" })
      expect(#router.stacks()).to_be(1)
    end)
  end)
end)
