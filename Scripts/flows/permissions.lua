-- The photo permission (rules/30-permissions.lua): an asynchronous host function, only
-- usable through the async navigation calls.

-- Stubs host.requestPhotoAccess: answers `granted` after a short simulated prompt.
-- app.calls("requestPhotoAccess") lists how often (and with what) it was asked.
local function photoPrompt(granted)
  app.host("requestPhotoAccess", function()
    app.wait(0.2)
    return granted
  end)
end

describe("photo permission", function()
  before_each(function()
    app.reset{ root = "home", facts = { isLoggedIn = true, hasSeenOnboarding = true } }
  end)

  describe("async", function()
    it("opens the picker once access is granted", function()
      photoPrompt(true)
      local r = router.pushAsync("photoPicker")
      expect(r).to_equal({ applied = true, kind = "push" })
      expect(app.calls("requestPhotoAccess")).to_have_been_called_times(1)
      expect(router.top()).to_equal({ name = "photoPicker" })
      local h = router.history()
      expect(h[#h].op.async).to_be(true)
      expect(h[#h].op.kind).to_be("push")
    end)

    it("shows the explanation sheet when access is denied", function()
      photoPrompt(false)
      local r = router.pushAsync("photoPicker")
      expect(r.applied).to_be(false)
      expect(r.reason).to_be("photo access denied")
      expect(r.redirect.kind).to_be("sheet")
      expect(r.redirect.applied).to_be(true)
      expect(router.top()).to_equal({ name = "permissionDenied" })
      expect(router.stacks()[1].routes).to_equal({ { name = "home" } })
    end)

    it("presents the picker as a sheet", function()
      photoPrompt(true)
      local r = router.sheetAsync("photoPicker")
      expect(r.applied).to_be(true)
      expect(r.kind).to_be("sheet")
      local stacks = router.stacks()
      expect(stacks[2].presentation).to_be("sheet")
      expect(stacks[2].routes).to_equal({ { name = "photoPicker" } })
    end)

    it("runs async operations one after the other", function()
      photoPrompt(true)
      expect(router.pushAsync("projects").applied).to_be(true)
      expect(router.pushAsync("photoPicker").applied).to_be(true)
      expect(router.pushAsync("settings").applied).to_be(true)
      local names = {}
      for _, route in ipairs(router.stacks()[1].routes) do
        names[#names + 1] = route.name
      end
      expect(names).to_equal({ "home", "projects", "photoPicker", "settings" })
      expect(app.calls("requestPhotoAccess")).to_have_length(1)
    end)
  end)

  describe("sync", function()
    it("fails closed: the prompt cannot run in a synchronous call", function()
      photoPrompt(true)
      local r = router.push("photoPicker")
      expect(r.applied).to_be(false)
      expect(r.kind).to_be("push")
      expect(r.redirect).to_be_nil()
      expect(app.calls("requestPhotoAccess")).to_have_been_called()
      -- A script error: the reason carries file:line and says to use the async variant.
      expect(r.reason).to_contain("30-permissions.lua")
      expect(string.lower(r.reason)).to_contain("async")
      expect(router.top()).to_equal({ name = "home" })
      local h = router.history()
      expect(h[#h].applied).to_be(false)
      expect(h[#h].reason).to_match("30%-permissions%.lua:%d+")
      -- Expected, so taken: `flowstack test --strict` does not fail the test for it.
      local errors = app.scriptErrors()
      expect(errors).to_have_length(1)
      expect(errors[1]).to_match("^rules/30%-permissions%.lua:%d+: script error in a rule %(it refused push photoPicker%)")
      expect(app.scriptErrors()).to_have_length(0)
    end)

    it("fails closed for a synchronous sheet as well", function()
      photoPrompt(true)
      local r = router.sheet("photoPicker")
      expect(r.applied).to_be(false)
      expect(string.lower(r.reason)).to_contain("async")
      expect(router.stacks()).to_have_length(1)
      expect(app.scriptErrors()[1]).to_contain("is asynchronous")
    end)
  end)
end)
