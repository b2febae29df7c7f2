-- Tabs: a stack per tab, tab selection through the rules, links that land in their tab.
describe("tabs", function()
  it("starts on the first tab", function()
    expect(router.tab()).to_be("feed")
    expect(router.top().name).to_be("feedHome")
    local tabs = router.tabs()
    expect(#tabs).to_be(3)
    expect(tabs[1].name).to_be("feed")
    expect(tabs[1].selected).to_be(true)
    expect(tabs[2].stack.routes[1].name).to_be("searchHome")
  end)

  it("keeps each tab's own stack", function()
    router.push({ name = "post", id = "1" })
    expect(router.selectTab("search").applied).to_be(true)
    expect(router.top().name).to_be("searchHome")
    router.push({ name = "results", query = "lua" })
    expect(router.selectTab("feed").applied).to_be(true)
    expect(router.top().name).to_be("post")
    expect(#router.stacks()).to_be(1)
    expect(router.selectTab("search").applied).to_be(true)
    expect(router.top().name).to_be("results")
    expect(router.tabs()[1].stack.routes[2].name).to_be("post")
  end)

  it("pops the selected tab to its root when it is selected again", function()
    router.push({ name = "post", id = "1" })
    router.push({ name = "comments", id = "1" })
    expect(router.selectTab("feed").applied).to_be(true)
    expect(router.top().name).to_be("feedHome")
  end)

  it("refuses the profile tab when signed out and answers with the sign-in sheet", function()
    local result = router.selectTab("profile")
    expect(result.applied).to_be(false)
    expect(result.redirect.kind).to_be("sheet")
    expect(router.tab()).to_be("feed")
    expect(#router.stacks()).to_be(2)
    expect(router.top().name).to_be("signIn")
  end)

  it("lets a signed-in person into the profile tab", function()
    app.facts{ isLoggedIn = true }
    expect(router.selectTab("profile").applied).to_be(true)
    expect(router.push("settings").applied).to_be(true)
  end)

  it("sees the selected tab in ctx.tab", function()
    local result = router.push("settings")
    expect(result.applied).to_be(false)
    expect(result.reason).to_contain("not feed")
  end)

  it("lands a link in its tab while the other tabs keep theirs", function()
    router.selectTab("search")
    router.push({ name = "results", query = "swift" })
    router.selectTab("feed")
    router.push({ name = "post", id = "1" })
    router.push({ name = "comments", id = "1" })
    router.selectTab("search")
    local link = router.open("tabsapp://posts/42")
    expect(link.status).to_be("applied")
    expect(router.tab()).to_be("feed")
    local feed = router.stacks()[1].routes
    expect(#feed).to_be(2)
    expect(feed[2].id).to_be("42")
    expect(router.tabs()[2].stack.routes[2].query).to_be("swift")
  end)

  it("names tab selections in the history", function()
    router.selectTab("search")
    router.selectTab("profile")
    expect(router.history()).to_match_steps{
      "selectTab search",
      "selectTab profile blocked: sign in to see your profile",
      "sheet signIn",
    }
  end)

  it("selects a tab through the async queue", function()
    expect(router.selectTabAsync("search").applied).to_be(true)
    expect(router.tab()).to_be("search")
  end)

  it("starts on another tab with app.reset{ tab = ... }", function()
    app.reset{ tab = "search" }
    expect(router.tab()).to_be("search")
    expect(router.top().name).to_be("searchHome")
  end)

  it("styles screens by tab", function()
    router.selectTab("search")
    expect(router.style(1).screen.navigationBarHidden).to_be(false)
    router.selectTab("feed")
    expect(router.style(1).screen.navigationBarHidden).to_be(true)
  end)
end)
