flow.guard("target", function(op, stacks, ctx)
  return flow.redirect("teleport", "home")
end)
