describe("collectgarbage", function()
  it("only \"count\" is allowed: every other option fails closed at its line", function()
    local cases = { { "target", 2, "stop" }, { "step", 5, "step" }, { "generational", 8, "generational" } }
    for _, case in ipairs(cases) do
      local r = router.push(case[1])
      expect(r.applied).to_be(false)
      expect(r.reason).to_contain("rules/gc.lua:" .. case[2])
      expect(r.reason).to_contain('collectgarbage("' .. case[3] .. '") is not allowed')
    end
    expect(router.top()).to_equal({ name = "root" })
    expect(router.push("counted").applied).to_be(true)
    expect(router.push("after").applied).to_be(true)
  end)
end)
