flow.guard("target", function(op, stacks, ctx)
  return host.askPermission()
end)
