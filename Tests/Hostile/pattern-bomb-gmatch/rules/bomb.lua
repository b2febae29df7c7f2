flow.guard("target", function(op, stacks, ctx)
  for run in ("a"):rep(3000):gmatch("a*a*b") do return false, run end
end)
