flow.guard("target", function(op, stacks, ctx)
  local s = "x"
  while true do s = s .. s end
end)
