describe("a dialog guard that writes the dialog view", function()
  local function lastEntry()
    local h = router.history()
    return h[#h]
  end

  it("is refused at its line for every kind of write, and the app keeps working", function()
    local cases = {
      { "id", 1 }, { { id = "nested", payload = { x = 0 } }, 2 }, { "raw", 3 }, { "meta", 4 }, { "ctx", 5 }, { "stacks", 6 },
    }
    for _, case in ipairs(cases) do
      expect(router.showDialog(case[1])).to_be(false)
      local entry = lastEntry()
      expect(entry.applied).to_be(false)
      expect(entry.reason).to_contain("rules/write.lua:" .. case[2])
      expect(router.dialog()).to_be_nil()
    end
    local next = router.push("after")
    expect(next.applied).to_be(true)
    expect(router.showDialog("untouched")).to_be(true)
  end)
end)
