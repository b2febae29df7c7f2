local calls = 0
flow.guard("target", function(op, stacks, ctx)
  calls = calls + 1
  lastRoute = op.route.name
  return true
end)
