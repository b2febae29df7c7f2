flow.guard("target", function(op, stacks, ctx)
  return xpcall(function() error("first") end, function()
    while true do end
  end)
end)
