flow.guard("target", function(op, stacks, ctx)
  for i = 1, 1e6 do print(("x"):rep(1e4)) end
end)
