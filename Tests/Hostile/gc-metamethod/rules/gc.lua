flow.guard("target", function(op, stacks, ctx)
  local finalized = setmetatable({}, { __gc = function() while true do end end })
  return finalized ~= nil
end)
