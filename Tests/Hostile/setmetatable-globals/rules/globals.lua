flow.guard("target", function(op, stacks, ctx)
  setmetatable(_G, nil)
  backdoor = true
end)
