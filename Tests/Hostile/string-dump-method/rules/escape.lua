flow.guard("target", function(op, stacks, ctx)
  local dump = ("").dump or getmetatable("").__index.dump
  return dump(print)
end)
