-- Dialogs in the rules (rules/10-auth.lua, rules/90-dialogs.lua, rules/80-links.lua): a
-- navigation answered with a dialog, dialog guards, a link that ends with a dialog, and every
-- dialog request in the history.

-- The history's dialog entries.
local function dialogEntries()
  local out = {}
  for _, entry in ipairs(router.history()) do
    if entry.op.kind == "showDialog" then out[#out + 1] = entry end
  end
  return out
end

describe("dialog rules", function()
  describe("a navigation answered with a dialog", function()
    before_each(function()
      app.reset{ root = "login", facts = { isLoggedIn = false, hasSeenOnboarding = true } }
    end)

    it("blocks the navigation with the reason and shows the dialog", function()
      local r = router.push("projects")
      expect(r.applied).to_be(false)
      expect(r.reason).to_be("login required")
      expect(r.redirect).to_equal({ kind = "dialog", dialog = "loginRequired", policy = "replace", applied = true })
      expect(router.top()).to_equal({ name = "login" })
      expect(router.dialog()).to_be("loginRequired")
    end)

    it("records the blocked navigation, then the dialog shown by the rules", function()
      router.sheet("profile")
      local h = router.history()
      expect(#h).to_be(2)
      expect(h[1].op.kind).to_be("sheet")
      expect(h[1].applied).to_be(false)
      expect(h[2].op).to_equal({ kind = "showDialog", dialog = "loginRequired", policy = "replace" })
      expect(h[2].applied).to_be(true)
      expect(h[2].generation).to_be(h[1].generation)
    end)

    it("reads as steps that name the dialog", function()
      router.push("projects")
      router.hideDialog()
      expect(router.history()).to_match_steps{
        "push projects blocked: login required",
        "showDialog loginRequired",
        "hideDialog loginRequired",
      }
    end)
  end)

  describe("dialog guards", function()
    before_each(function()
      app.reset{ root = "home", facts = { isLoggedIn = true, hasSeenOnboarding = true } }
    end)

    it("shows a dialog no guard refuses", function()
      expect(router.showDialog("ratingPrompt")).to_be(true)
      expect(router.dialog()).to_be("ratingPrompt")
    end)

    it("refuses the rating prompt on top of the paywall, with the reason in the history", function()
      router.fullScreenCover("paywall")
      expect(router.showDialog("ratingPrompt")).to_be(false)
      expect(router.dialog()).to_be_nil()
      local entries = dialogEntries()
      expect(#entries).to_be(1)
      expect(entries[1].applied).to_be(false)
      expect(entries[1].reason).to_be("no rating prompt on top of the paywall")
    end)

    it("refuses the rating prompt during checkout", function()
      router.fullScreenCover("paywall")
      router.push("checkout")
      expect(router.showDialog("ratingPrompt", "queue")).to_be(false)
      expect(dialogEntries()[1].reason).to_be("no rating prompt during checkout")
    end)

    it("queues the rating prompt behind another dialog, asking its rule once", function()
      router.showDialog("networkError")
      expect(router.showDialog("ratingPrompt")).to_be(true)
      expect(router.dialog()).to_be("networkError")
      expect(router.queuedDialogCount()).to_be(1)
      local entries = dialogEntries()
      expect(#entries).to_be(3)
      expect(entries[2].op.policy).to_be("replace")
      expect(entries[2].applied).to_be(false)
      expect(entries[2].reason).to_be("another dialog is up: the rating prompt waits")
      expect(entries[3].op).to_equal({ kind = "showDialog", dialog = "ratingPrompt", policy = "queue" })
      expect(entries[3].applied).to_be(true)
    end)

    it("refuses the login-required dialog once signed in", function()
      expect(router.showDialog("loginRequired")).to_be(false)
      expect(dialogEntries()[1].reason).to_be("already signed in")
    end)

    it("never refuses hiding or clearing", function()
      router.showDialog("ratingPrompt")
      router.fullScreenCover("paywall")
      router.hideDialog()
      expect(router.dialog()).to_be_nil()
      router.showDialog("networkError", "queue")
      router.clearDialogs()
      expect(router.dialog()).to_be_nil()
    end)
  end)

  describe("a link that ends with a dialog", function()
    it("shows the dialog after the plan's navigation", function()
      app.reset{ root = "home", facts = { isLoggedIn = true, hasSeenOnboarding = true } }
      local r = router.open("myapp://invites/abc")
      expect(r.status).to_be("applied")
      expect(r.dialogs).to_equal({
        { kind = "dialog", dialog = { id = "inviteAccepted", code = "abc" }, policy = "replace", applied = true },
      })
      expect(router.top()).to_equal({ name = "home" })
      expect(router.dialog()).to_equal({ id = "inviteAccepted", code = "abc" })
      expect(#dialogEntries()).to_be(1)
    end)

    it("holds a link whose step a rule answers with a dialog, and shows that dialog", function()
      app.reset{ root = "login", facts = { isLoggedIn = false, hasSeenOnboarding = true } }
      local r = router.open("myapp://settings")
      expect(r.status).to_be("pending")
      expect(r.result.applied).to_be(false)
      expect(r.result.reason).to_be("login required")
      expect(r.result.redirect).to_equal({ kind = "dialog", dialog = "loginRequired", policy = "replace", applied = true })
      expect(router.dialog()).to_be("loginRequired")
      expect(router.pendingLink()).to_be("myapp://settings")
    end)

    it("shows no dialog when the plan does not apply", function()
      app.reset{ root = "login", facts = { isLoggedIn = false, hasSeenOnboarding = true } }
      local r = router.open("myapp://invites/abc")
      expect(r.status).to_be("pending")
      expect(r.dialogs).to_be_nil()
      expect(router.dialog()).to_be_nil()
    end)
  end)
end)
