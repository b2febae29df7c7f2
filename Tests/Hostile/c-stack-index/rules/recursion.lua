flow.guard("target", function(op, stacks, ctx)
  local loop = setmetatable({}, {})
  getmetatable(loop).__index = function(t, k) return t[k] end
  return loop.anything
end)
