flow.guard("target", function(op, stacks, ctx)
  table.concat = nil
  string.rep = function() return "" end
  return table.concat({ "a" }) == "a"
end)
