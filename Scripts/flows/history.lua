-- The operation history: what was tried, what applied, why not, and which rules decided.

-- The first history entry for which `match(entry)` is true, or nil.
local function findEntry(match)
  for _, entry in ipairs(router.history()) do
    if match(entry) then return entry end
  end
  return nil
end

describe("history", function()
  before_each(function()
    app.reset{ root = "home", facts = { isLoggedIn = true, hasSeenOnboarding = true } }
  end)

  it("starts empty", function()
    expect(router.history()).to_equal({})
  end)

  it("records applied and blocked operations, oldest first", function()
    router.push("projects")
    router.push("promo") -- blocked: the promo opens as a sheet
    router.pop()
    local h = router.history()
    expect(#h).to_be(3)
    expect(h[1].op.kind).to_be("push")
    expect(h[1].op.route).to_equal({ name = "projects" })
    expect(h[1].op.source).to_be("code")
    expect(h[1].op.async).to_be(false)
    expect(h[1].applied).to_be(true)
    expect(h[1].reason).to_be_nil()
    expect(h[2].op.route).to_equal({ name = "promo" })
    expect(h[2].applied).to_be(false)
    expect(h[2].reason).to_be("promo opens as a sheet")
    expect(h[3].op.kind).to_be("pop")
    expect(h[3].applied).to_be(true)
  end)

  it("records the operation's details", function()
    router.pushMany{ "projects", { name = "detail", id = "3" } }
    router.pop(2)
    router.sheet("settings")
    router.dismiss(2)
    local h = router.history()
    expect(h[1].op.kind).to_be("pushMany")
    expect(h[1].op.routes).to_equal({ { name = "projects" }, { name = "detail", id = "3" } })
    expect(h[2].op.kind).to_be("pop")
    expect(h[2].op.count).to_be(2)
    expect(h[3].op.kind).to_be("sheet")
    expect(h[3].op.route).to_equal({ name = "settings" })
    expect(h[4].op.kind).to_be("dismiss")
    expect(h[4].op.target).to_be(2)
  end)

  it("reads as a list of steps", function()
    router.push("projects")
    router.push("promo")
    router.push({ name = "editor", id = "1" })
    router.dismiss()
    expect(router.history()).to_match_steps{
      "push projects",
      "push promo blocked: promo opens as a sheet",
      "push editor redirected: premium required",
      "fullScreenCover paywall",
      "dismiss",
    }
  end)

  it("records which rules generation decided", function()
    router.push("projects")
    router.push("promo")
    local h = router.history()
    expect(h[1].generation).to_be_a("integer")
    expect(h[2].generation).to_be(h[1].generation)
  end)

  it("records the generation a rule edit brings #reload", function()
    router.push("projects")
    local before = app.generation()
    local generation = app.reload()
    expect(generation).to_be_greater_than(before)
    router.pop()
    local h = router.history()
    expect(h[1].generation).to_be(before)
    expect(h[2].generation).to_be(generation)
  end)

  it("records a redirect's blocked operation and the one performed instead", function()
    router.push({ name = "editor", id = "1" })
    local blocked = findEntry(function(e) return e.op.kind == "push" end)
    expect(blocked.applied).to_be(false)
    expect(blocked.reason).to_be("premium required")
    expect(blocked.op.route).to_equal({ name = "editor", id = "1" })
    local performed = findEntry(function(e) return e.op.kind == "fullScreenCover" end)
    expect(performed.applied).to_be(true)
    expect(performed.op.route).to_equal({ name = "paywall" })
  end)

  it("is emptied by app.reset", function()
    router.push("projects")
    expect(#router.history()).to_be(1)
    app.reset{ root = "home", facts = { isLoggedIn = true } }
    expect(router.history()).to_equal({})
    expect(router.top()).to_equal({ name = "home" })
  end)
end)
