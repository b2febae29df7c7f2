flow.guard("target", function(op, stacks, ctx)
  local hoard = {}
  for i = 1, 1e9 do hoard[i] = { i } end
end)
