flow.guard("target", function(op, stacks, ctx)
  debug.sethook()
  return debug.getregistry() ~= nil
end)
