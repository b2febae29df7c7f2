local hoard = {}
flow.guard("target", function(op, stacks, ctx)
  for i = 1, 1e9 do hoard[#hoard + 1] = ("x"):rep(1 << 20) .. i end
end)
