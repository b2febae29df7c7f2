-- 1 MiB built at load (its own call, its own budget)
local megabyte = ("y"):rep(1 << 10):rep(1 << 10)
flow.guard("target", function(op, stacks, ctx)
  local s = ("x"):rep(100):gsub(".", function() return megabyte end)
  return #s > 0
end)
