flow.guard("target", function(op, stacks, ctx)
  error(setmetatable({}, { __tostring = function() while true do end end }))
end)
