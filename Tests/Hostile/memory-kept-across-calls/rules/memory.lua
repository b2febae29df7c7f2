local hoard = {}
local kilobyte = ("x"):rep(1 << 10)
flow.guard("target", function(op, stacks, ctx)
  for i = 1, 1e9 do hoard[#hoard + 1] = kilobyte:rep(1 << 10) .. i end
end)
