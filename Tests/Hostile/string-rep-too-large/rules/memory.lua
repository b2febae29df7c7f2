flow.guard("target", function(op, stacks, ctx)
  local s = ("x"):rep(1e12)
  return #s > 0
end)
