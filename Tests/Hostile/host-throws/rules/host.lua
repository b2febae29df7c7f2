flow.guard("target", function(op, stacks, ctx)
  return host.checkAccount(op.route.name)
end)
