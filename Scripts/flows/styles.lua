-- Resolved styles (rules/60-style-screens.lua, rules/70-style-presentation.lua) on top of
-- the Swift defaults (navigationBarHidden = true, multilineTextAlignment = "leading").

describe("styles", function()
  before_each(function()
    app.reset{ root = "home", facts = { isLoggedIn = true, hasSeenOnboarding = true, isPremium = true } }
  end)

  describe("by route", function()
    it("gives home its background and keeps the Swift defaults", function()
      local s = router.style(1, 0)
      expect(s.screen.background).to_be("#F2F2F7")
      expect(s.screen.navigationBarHidden).to_be(true)
      expect(s.screen.multilineTextAlignment).to_be("leading")
      expect(s.stack.tint).to_be("blue")
      expect(s.modal).to_be_nil()
    end)

    it("overrides a Swift default on login", function()
      app.reset{ root = "login", facts = { hasSeenOnboarding = true } }
      expect(router.style(1, 0).screen.multilineTextAlignment).to_be("center")
    end)

    it("titles the editor and a detail from its payload", function()
      router.pushMany{ { name = "detail", id = "42" }, { name = "editor", id = "42" } }
      expect(router.style(1, 1).screen.navigationTitle).to_be("Project 42")
      expect(router.style(1, 2).screen.navigationTitle).to_be("Editor")
    end)

    it("makes the paywall dark, gold and not swipeable", function()
      app.facts{ isPremium = false }
      router.fullScreenCover("paywall")
      local s = router.style(2, 0)
      expect(s.screen.preferredColorScheme).to_be("dark")
      expect(s.screen.background).to_be("black")
      expect(s.stack.tint).to_be("#FFD60A")
      expect(s.modal.interactiveDismissDisabled).to_be(true)
    end)
  end)

  describe("by depth", function()
    it("shows the bar on pushed screens only", function()
      router.pushMany{ "projects", "settings" }
      expect(router.style(1, 0).screen.navigationBarHidden).to_be(true)
      expect(router.style(1, 1).screen.navigationBarHidden).to_be(false)
      expect(router.style(1, 1).screen.navigationTitle).to_be("Projects")
      expect(router.style(1, 2).screen.navigationBarHidden).to_be(false)
    end)

    it("lets a later rule override the depth rule", function()
      app.host("requestPhotoAccess", function() return true end)
      expect(router.pushAsync("photoPicker").applied).to_be(true)
      expect(router.style(1, 1).screen.navigationBarHidden).to_be(true)
    end)
  end)

  describe("by presentation", function()
    it("styles sheets: detents, grabber, purple tint", function()
      router.sheet("settings")
      router.push("profile")
      local s = router.style(2, 0)
      expect(s.modal.presentationDetents).to_equal({ "medium", "large" })
      expect(s.modal.presentationDragIndicator).to_be("visible")
      expect(s.stack.tint).to_be("purple")
      expect(s.screen.navigationBarHidden).to_be(true)
      expect(router.style(2, 1).screen.navigationBarHidden).to_be(false)
    end)

    it("gives the promo sheet its own detents", function()
      router.sheet("promo")
      local modal = router.style(2, 0).modal
      expect(modal.presentationDetents).to_equal({ { height = 320 }, "large" })
      expect(modal.presentationDragIndicator).to_be("visible")
    end)

    it("tints full-screen covers orange and keeps them swipeable", function()
      router.fullScreenCover("settings")
      local s = router.style(2, 0)
      expect(s.stack.tint).to_be("orange")
      expect(s.modal).to_be_truthy()
      expect(s.modal.interactiveDismissDisabled).to_be_falsy()
      expect(s.modal.presentationDetents).to_be_nil()
    end)
  end)

  describe("while editing", function()
    it("hides the back button of an editor with unsaved changes", function()
      router.push({ name = "editor", id = "7" })
      expect(router.style(1, 1).screen.navigationBarBackButtonHidden).to_be_falsy()
      app.facts{ hasUnsavedChanges = true }
      expect(router.style(1, 1).screen.navigationBarBackButtonHidden).to_be(true)
    end)

    it("disables swipe-down on a presented editor with unsaved changes", function()
      router.sheet({ name = "editor", id = "7" })
      app.facts{ hasUnsavedChanges = true }
      local s = router.style(2, 0)
      expect(s.modal.interactiveDismissDisabled).to_be(true)
      expect(s.screen.navigationTitle).to_be("Editor")
    end)
  end)
end)
