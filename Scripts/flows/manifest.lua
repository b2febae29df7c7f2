-- The manifest (Scripts/routes.lua) checks every name a flow uses, and the test
-- harness itself: fresh state per test, app.reset, app.facts, expect(fn).to_fail.

describe("manifest", function()
  it("starts every test from the manifest's root and default facts", function()
    expect(router.top()).to_equal({ name = "splash" })
    expect(router.history()).to_equal({})
    -- Default facts: signed out, so a private screen is blocked.
    expect(router.push("settings").reason).to_be("login required")
  end)

  it("app.reset without a root goes back to the manifest's root", function()
    app.reset{ root = "home", facts = { isLoggedIn = true } }
    expect(router.top()).to_equal({ name = "home" })
    app.reset{}
    expect(router.top()).to_equal({ name = "splash" })
  end)

  it("app.facts merges into the current facts", function()
    app.reset{ root = "home", facts = { isLoggedIn = true, hasSeenOnboarding = true } }
    app.facts{ isPremium = true }
    -- isLoggedIn survived the merge and isPremium is on: the editor opens.
    expect(router.push({ name = "editor", id = "1" }).applied).to_be(true)
  end)

  it("rejects an unknown route with a suggestion", function()
    expect(function() router.push("projcts") end).to_fail("projects")
  end)

  it("rejects a payload of the wrong type", function()
    expect(function() router.push({ name = "detail", id = 42 }) end).to_fail("id")
  end)

  it("rejects an unknown dialog with a suggestion", function()
    expect(function() router.showDialog("networkErorr") end).to_fail("networkError")
  end)

  it("rejects an unknown fact with a suggestion", function()
    expect(function() app.facts{ isPremuim = true } end).to_fail("isPremium")
  end)

  it("to_fail catches an error, with or without a pattern", function()
    expect(function() error("boom") end).to_fail()
    expect(function() error("disk full") end).to_fail("disk")
  end)
end)
