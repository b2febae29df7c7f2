-- 12 MiB built at load (its own call, its own budget)
local piece = ("x"):rep(1 << 10):rep(12 << 10)
flow.guard("target", function(op, stacks, ctx)
  return #table.concat({ piece, piece, piece }) > 0
end)
