flow.guard("target", function(op, stacks, ctx)
  local socket = require("socket")
  return socket ~= nil
end)
