describe("memory kept by a file-level table across calls", function()
  it("each call fails closed at its line until the memory budget is reached, and the app keeps working", function()
    -- one call can allocate about 16 MiB before its instruction budget runs out (allocations are
    -- charged); the table keeps what it got, so a few calls reach the 32 MiB memory budget
    local calls, memoryReached = 0, false
    while calls < 10 and not memoryReached do
      calls = calls + 1
      local r = router.push("target")
      expect(r.applied).to_be(false)
      expect(r.reason).to_contain("rules/memory.lua:4")
      memoryReached = r.reason:find("memory budget exceeded: the VM needed more than its 32 MiB budget", 1, true) ~= nil
      if not memoryReached then expect(r.reason).to_contain("instruction budget exceeded") end
    end
    expect(memoryReached).to_be(true)
    expect(calls > 1).to_be(true)
    -- the memory stays held: the rule keeps failing closed, the rest of the app works
    expect(router.push("target").applied).to_be(false)
    expect(router.top()).to_equal({ name = "root" })
    expect(router.push("after").applied).to_be(true)
    expect(router.top()).to_equal({ name = "after" })
  end)
end)
