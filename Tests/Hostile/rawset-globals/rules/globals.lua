flow.guard("target", function(op, stacks, ctx)
  rawset(_G, "backdoor", function() return true end)
  return backdoor()
end)
