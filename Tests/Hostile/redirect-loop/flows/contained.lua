describe("a redirect loop", function()
  it("stops after 8 redirects, fails closed, and the app keeps working", function()
    local r = router.push("target")
    expect(r.applied).to_be(false)
    expect(r.reason).to_contain("rules/loop.lua:1")
    local last = r
    local depth = 0
    while last.redirect do last = last.redirect; depth = depth + 1 end
    expect(depth).to_be(8)
    expect(last.applied).to_be(false)
    expect(last.reason).to_contain("redirect loop: more than 8 redirects")
    expect(router.top()).to_equal({ name = "root" })
    expect(router.push("after").applied).to_be(true)
  end)
end)
