flow.guard("target", function(op, stacks, ctx)
  error(setmetatable({}, { __tostring = function() error("no description") end }))
end)
