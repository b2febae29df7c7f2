flow.guard("target", function(op, stacks, ctx)
  local chunk = loadfile("rules/escape.lua")
  return chunk ~= nil
end)
