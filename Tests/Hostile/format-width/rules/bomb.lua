flow.guard("target", function(op, stacks, ctx)
  return string.format("%1000000d", 1) ~= ""
end)
