local function nest()
  return coroutine.wrap(nest)()
end
flow.guard("target", function(op, stacks, ctx)
  return nest()
end)
