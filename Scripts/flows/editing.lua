-- Save before leaving (rules/40-editing.lua): code is blocked, an async navigation asks the
-- person (host.confirmDiscard, stubbed with a spy), and the user's own gestures
-- (router.userPop, router.userDismiss) are not offered while the style forbids them.

local EDITOR = { name = "editor", id = "7" }

describe("editing", function()
  before_each(function()
    app.reset{ root = "home", facts = { isLoggedIn = true, hasSeenOnboarding = true, isPremium = true } }
  end)

  describe("in a pushed editor", function()
    before_each(function()
      router.pushMany{ "projects", EDITOR }
    end)

    it("leaves freely when everything is saved", function()
      local r = router.pop()
      expect(r.applied).to_be(true)
      expect(router.top()).to_equal({ name = "projects" })
    end)

    describe("with unsaved changes", function()
      before_each(function()
        app.facts{ hasUnsavedChanges = true }
      end)

      it("blocks pop", function()
        local r = router.pop()
        expect(r).to_equal({ applied = false, kind = "pop", reason = "unsaved changes" })
        expect(router.top()).to_equal(EDITOR)
      end)

      it("blocks pop with a count, popTo and popToRoot", function()
        expect(router.pop(2).reason).to_be("unsaved changes")
        expect(router.popTo("projects").reason).to_be("unsaved changes")
        expect(router.popTo("projects", "inclusive").applied).to_be(false)
        expect(router.popToRoot()).to_equal({ applied = false, kind = "popToRoot", reason = "unsaved changes" })
        expect(#router.stacks()[1].routes).to_be(3)
      end)

      it("blocks replacing the editor", function()
        local r = router.replaceCurrent("settings")
        expect(r).to_equal({ applied = false, kind = "replaceCurrent", reason = "unsaved changes" })
      end)

      it("offers no back swipe: the editor hides its back button", function()
        local r = router.userPop()
        expect(r.applied).to_be(false)
        expect(r.kind).to_be("pop")
        expect(r.reason).to_contain("navigationBarBackButtonHidden")
        expect(router.top()).to_equal(EDITOR)
        expect(router.history()).to_match_steps{ "pushMany projects,editor" }
      end)

      it("asks before an async pop, and leaves when the person discards", function()
        local confirm = spy(function()
          app.wait(0.5) -- the alert is up
          return true
        end)
        app.host("confirmDiscard", confirm)
        local r = router.popAsync()
        expect(r.applied).to_be(true)
        expect(confirm).to_have_been_called_times(1)
        expect(router.top()).to_equal({ name = "projects" })
        local h = router.history()
        expect(h[#h].op.async).to_be(true)
      end)

      it("stays when the person keeps editing", function()
        app.host("confirmDiscard", spy(function() return false end))
        expect(router.popAsync()).to_equal({ applied = false, kind = "pop", reason = "unsaved changes" })
        expect(router.popToAsync("projects").reason).to_be("unsaved changes")
        expect(router.top()).to_equal(EDITOR)
        expect(app.calls("confirmDiscard")).to_have_length(2)
      end)

      it("does not ask in a synchronous pop", function()
        app.host("confirmDiscard", spy(function() return true end))
        expect(router.pop().reason).to_be("unsaved changes")
        expect(app.calls("confirmDiscard")).to_have_length(0)
      end)

      it("lets the user swipe back once saved", function()
        app.facts{ hasUnsavedChanges = false }
        local r = router.userPop()
        expect(r.applied).to_be(true)
        expect(router.top()).to_equal({ name = "projects" })
        local h = router.history()
        expect(h[#h].op.source).to_be("user")
      end)

      it("does not guard screens pushed above the editor", function()
        expect(router.push("settings").applied).to_be(true)
        expect(router.pop().applied).to_be(true)
        expect(router.top()).to_equal(EDITOR)
      end)

      it("leaves once the changes are saved", function()
        app.facts{ hasUnsavedChanges = false }
        expect(router.popToRoot().applied).to_be(true)
        expect(router.top()).to_equal({ name = "home" })
      end)
    end)
  end)

  describe("in a presented editor with unsaved changes", function()
    before_each(function()
      router.sheet(EDITOR)
      app.facts{ hasUnsavedChanges = true }
    end)

    it("blocks dismiss, by index too, and dismissAll", function()
      expect(router.dismiss()).to_equal({ applied = false, kind = "dismiss", reason = "unsaved changes" })
      expect(router.dismiss(2).applied).to_be(false)
      expect(router.dismissAll().reason).to_be("unsaved changes")
      expect(#router.stacks()).to_be(2)
    end)

    it("offers no swipe-down: interactiveDismissDisabled", function()
      local r = router.userDismiss()
      expect(r.applied).to_be(false)
      expect(r.kind).to_be("dismiss")
      expect(r.reason).to_contain("interactiveDismissDisabled")
      expect(#router.stacks()).to_be(2)
    end)

    it("asks before an async dismiss", function()
      app.host("confirmDiscard", spy(function() return true end))
      expect(router.dismissAsync().applied).to_be(true)
      expect(#router.stacks()).to_be(1)
    end)

    it("lets the user swipe the sheet down once saved", function()
      app.facts{ hasUnsavedChanges = false }
      local r = router.userDismiss()
      expect(r.applied).to_be(true)
      expect(#router.stacks()).to_be(1)
      local h = router.history()
      expect(h[#h].op.source).to_be("user")
      expect(h[#h].op.kind).to_be("dismiss")
    end)
  end)
end)
