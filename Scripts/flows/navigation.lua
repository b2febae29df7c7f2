-- Navigation basics on the root stack: push, pushMany, pushRemovingPrevious,
-- replaceCurrent, pop, popToRoot, popTo, setRoot, and the depth and promo rules
-- (rules/50-navigation.lua).

-- The route names of the front-most stack, root first.
local function names()
  local stacks = router.stacks()
  local out = {}
  for _, route in ipairs(stacks[#stacks].routes) do
    out[#out + 1] = route.name
  end
  return out
end

describe("navigation", function()
  before_each(function()
    app.reset{ root = "home", facts = { isLoggedIn = true, hasSeenOnboarding = true } }
  end)

  after_each(function()
    -- Whatever a test did, the root stack is still there and comes first.
    local stacks = router.stacks()
    expect(stacks[1].index).to_be(1)
    expect(stacks[1].presentation).to_be("root")
  end)

  describe("pushing", function()
    it("pushes a route with a payload", function()
      local r = router.push({ name = "detail", id = "42" })
      expect(r).to_equal({ applied = true, kind = "push" })
      expect(router.top()).to_equal({ name = "detail", id = "42" })
      expect(router.stacks()[1].routes).to_equal({ { name = "home" }, { name = "detail", id = "42" } })
    end)

    it("pushes several routes at once", function()
      local r = router.pushMany{ "projects", { name = "detail", id = "7" } }
      expect(r.applied).to_be(true)
      expect(r.kind).to_be("pushMany")
      expect(names()).to_equal({ "home", "projects", "detail" })
      expect(router.top()).to_equal({ name = "detail", id = "7" })
    end)

    it("pushes and removes the previous screen", function()
      router.pushMany{ "projects", { name = "detail", id = "7" } }
      local r = router.pushRemovingPrevious("settings")
      expect(r.applied).to_be(true)
      expect(r.kind).to_be("pushRemovingPrevious")
      expect(names()).to_equal({ "home", "projects", "settings" })
    end)

    it("replaces the current screen", function()
      router.push("projects")
      local r = router.replaceCurrent("profile")
      expect(r).to_equal({ applied = true, kind = "replaceCurrent" })
      expect(names()).to_equal({ "home", "profile" })
      expect(names()).to_contain("profile")
    end)

    it("limits how deep a stack gets", function()
      app.facts{ maxPushDepth = 2 }
      expect(router.push("projects").applied).to_be(true)
      expect(router.push({ name = "detail", id = "1" }).applied).to_be(true)
      local r = router.push("settings")
      expect(r).to_equal({ applied = false, kind = "push", reason = "at most 2 pushed screens" })
      expect(#router.stacks()[1].routes).to_be(3)
    end)

    it("limits pushMany as a whole: nothing of it applies", function()
      app.facts{ maxPushDepth = 2 }
      local r = router.pushMany{ "projects", { name = "detail", id = "1" }, "settings" }
      expect(r.applied).to_be(false)
      expect(r.reason).to_be("at most 2 pushed screens")
      expect(names()).to_equal({ "home" })
    end)

    it("never pushes the promo (a lookup that yields nil blocks)", function()
      local r = router.push("promo")
      expect(r).to_equal({ applied = false, kind = "push", reason = "promo opens as a sheet" })
      expect(router.top()).to_equal({ name = "home" })
    end)
  end)

  describe("popping", function()
    before_each(function()
      router.pushMany{ "projects", { name = "detail", id = "42" }, "settings" }
    end)

    it("pops one screen", function()
      local r = router.pop()
      expect(r).to_equal({ applied = true, kind = "pop" })
      expect(router.top()).to_equal({ name = "detail", id = "42" })
    end)

    it("pops several screens", function()
      local r = router.pop(2)
      expect(r.applied).to_be(true)
      expect(names()).to_equal({ "home", "projects" })
    end)

    it("says how many it popped when asked for more than there are", function()
      local r = router.pop(9)
      expect(r.applied).to_be(true)
      expect(r.count).to_be(3)
      expect(r.reason).to_match("^popped 3 of 9")
      expect(names()).to_equal({ "home" })
      expect(router.pop().applied).never.to_be_truthy()
    end)

    it("refuses to dismiss a stack that does not exist", function()
      local r = router.dismiss(4)
      expect(r.applied).to_be(false)
      expect(r.reason).to_contain("no stack at index 4")
      expect(router.stacks()).to_have_length(1)
    end)

    it("pops to the root", function()
      local r = router.popToRoot()
      expect(r).to_equal({ applied = true, kind = "popToRoot" })
      expect(names()).to_equal({ "home" })
      expect(router.top()).to_equal({ name = "home" })
    end)

    it("pops to a route, keeping it", function()
      local r = router.popTo("projects")
      expect(r).to_equal({ applied = true, kind = "popTo" })
      expect(router.top()).to_equal({ name = "projects" })
    end)

    it("pops to the stack's root by name, as popToRoot", function()
      local r = router.popTo("home")
      expect(r).to_equal({ applied = true, kind = "popToRoot" })
      expect(names()).to_equal({ "home" })
      expect(router.popTo("home", "inclusive").reason).to_contain("cannot be popped")
      local h = router.history()
      expect(h[#h].op.kind).to_be("popToRoot")
    end)

    it("pops to a route with a payload, including it", function()
      local r = router.popTo({ name = "detail", id = "42" }, "inclusive")
      expect(r.applied).to_be(true)
      expect(r.kind).to_be("popTo")
      expect(names()).to_equal({ "home", "projects" })
    end)
  end)

  describe("replacing the root", function()
    it("sets a new root and drops the path", function()
      router.pushMany{ "projects", "settings" }
      local r = router.setRoot("projects")
      expect(r).to_equal({ applied = true, kind = "setRoot" })
      local stacks = router.stacks()
      expect(#stacks).to_be(1)
      expect(stacks[1].routes).to_equal({ { name = "projects" } })
    end)

    it("starts from a root with a payload given to app.reset", function()
      app.reset{ root = { name = "detail", id = "9" }, facts = { isLoggedIn = true } }
      expect(router.top()).to_equal({ name = "detail", id = "9" })
      expect(router.stacks()[1].routes[1]).to_equal({ name = "detail", id = "9" })
    end)
  end)
end)
