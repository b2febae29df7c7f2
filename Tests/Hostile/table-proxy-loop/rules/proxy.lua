flow.guard("target", function(op, stacks, ctx)
  local endless = setmetatable({}, { __len = function() return 1 << 40 end, __index = rawlen, __newindex = rawequal })
  table.insert(endless, 1, "x")
end)
