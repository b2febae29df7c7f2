flow.guard("target", function(op, stacks, ctx)
  local selfish = setmetatable({}, { __tostring = function(self) return tostring(self) end })
  return tostring(selfish) ~= nil
end)
