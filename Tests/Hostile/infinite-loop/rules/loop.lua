flow.guard("target", function(op, stacks, ctx)
  while true do end
end)
