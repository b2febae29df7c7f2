flow.guard("target", function(op, stacks, ctx)
  return load("while true do end")()
end)
