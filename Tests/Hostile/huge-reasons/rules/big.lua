local big = ("x"):rep(1 << 16)
for _ = 1, 6 do big = big .. big end -- 4 MiB (string.rep of 4 MiB costs more than the budget)
flow.guard("target", function(op)
  error(big)
end)
flow.guard("reason", function(op)
  return false, big
end)
