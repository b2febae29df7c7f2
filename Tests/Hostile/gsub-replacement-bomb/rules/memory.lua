flow.guard("target", function(op, stacks, ctx)
  local s = ("x"):rep(100):gsub(".", function() return ("y"):rep(1e6) end)
  return #s > 0
end)
