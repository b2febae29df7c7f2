-- The tab bar (routes.lua: home, projects, profile): each tab keeps its own stack, signed-out
-- taps on the private tabs wait for the sign-in (rules/10-auth.lua), and links open on the home
-- tab whichever tab is selected (rules/80-links.lua).

-- The route names of a stack or a tab (router.tabs()), root first.
local function names(stackOrTab)
  local out = {}
  for _, route in ipairs((stackOrTab.stack or stackOrTab).routes) do
    out[#out + 1] = route.name
  end
  return out
end

describe("tabs", function()
  describe("signed in", function()
    before_each(function()
      app.reset{ root = "home", facts = { isLoggedIn = true, hasSeenOnboarding = true } }
    end)

    it("starts on the home tab, every tab at its root", function()
      expect(router.tab()).to_be("home")
      local tabs = router.tabs()
      expect(#tabs).to_be(3)
      expect(tabs[1].name).to_be("home")
      expect(tabs[1].selected).to_be(true)
      expect(names(tabs[1])).to_equal({ "home" })
      expect(names(tabs[2])).to_equal({ "projects" })
      expect(names(tabs[3])).to_equal({ "profile" })
    end)

    it("keeps each tab's stack when another tab is selected", function()
      router.push("settings")
      expect(router.selectTab("projects")).to_equal({ applied = true, kind = "selectTab" })
      router.push({ name = "detail", id = "7" })
      expect(names(router.stacks()[1])).to_equal({ "projects", "detail" })
      router.selectTab("home")
      expect(names(router.stacks()[1])).to_equal({ "home", "settings" })
      expect(names(router.tabs()[2])).to_equal({ "projects", "detail" })
    end)

    it("replaces the root on the home tab only", function()
      router.selectTab("profile")
      local r = router.setRoot("home")
      expect(r).to_equal({ applied = false, kind = "setRoot", reason = "only the home tab's root is replaced" })
      expect(names(router.stacks()[1])).to_equal({ "profile" })
    end)

    it("opens a project link on the home tab from another tab", function()
      router.selectTab("profile")
      router.push("settings")
      expect(router.open("myapp://projects/42").status).to_be("applied")
      expect(router.tab()).to_be("home")
      expect(names(router.stacks()[1])).to_equal({ "home", "projects", "detail" })
      expect(names(router.tabs()[3])).to_equal({ "profile", "settings" })
    end)
  end)

  describe("signed out", function()
    before_each(function()
      app.reset{ root = "home", facts = { hasSeenOnboarding = true } }
    end)

    it("holds a tap on a private tab behind the login sheet", function()
      local r = router.selectTab("profile")
      expect(r.applied).to_be(false)
      expect(r.reason).to_be("sign in to see profile")
      expect(r.redirect).to_equal({ kind = "sheet", applied = true })
      expect(router.tab()).to_be("home")
      expect(router.top()).to_equal({ name = "login" })
      local held = router.pendingNavigation()
      expect(held.kind).to_be("selectTab")
      expect(held.tab).to_be("profile")
    end)

    it("opens the held tab once the person has signed in", function()
      router.selectTab("projects")
      app.facts{ isLoggedIn = true }
      expect(router.tab()).to_be("projects")
      expect(#router.stacks()).to_be(1)
      expect(names(router.stacks()[1])).to_equal({ "projects" })
    end)

    it("opens the home tab", function()
      router.selectTab("projects")
      app.facts{ isLoggedIn = false }
      expect(router.selectTab("home").applied).to_be(true)
    end)
  end)
end)
