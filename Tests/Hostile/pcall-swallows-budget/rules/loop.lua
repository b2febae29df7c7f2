flow.guard("target", function(op, stacks, ctx)
  while true do
    pcall(function() while true do end end)
  end
end)
