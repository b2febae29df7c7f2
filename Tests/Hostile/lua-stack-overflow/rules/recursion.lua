local function deeper(n)
  return deeper(n + 1) + 1
end
flow.guard("target", function(op, stacks, ctx)
  return deeper(1) > 0
end)
