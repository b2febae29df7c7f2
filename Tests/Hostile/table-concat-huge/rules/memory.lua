flow.guard("target", function(op, stacks, ctx)
  local parts = {}
  for i = 1, 400 do parts[i] = ("x"):rep(1e5) end
  return #table.concat(parts, ("-"):rep(1e5)) > 0
end)
