describe("a table too large for one call (allocations are charged: 16 bytes = 1 instruction)", function()
  it("fails closed at its line and the app keeps working", function()
    local r = router.push("target")
    expect(r.applied).to_be(false)
    expect(r.reason).to_contain("rules/memory.lua:3")
    -- allocation-dense: under sanitizers the time backstop can stop it first
    expect(r.reason:find("instruction budget exceeded", 1, true) or r.reason:find("time limit exceeded", 1, true)).to_be_truthy()
    -- the app still works: the stack did not change and another navigation applies
    expect(router.top()).to_equal({ name = "root" })
    local next = router.push("after")
    expect(next.applied).to_be(true)
    expect(router.top()).to_equal({ name = "after" })
  end)
end)
