flow.guard("target", function(op, stacks, ctx)
  os.remove("routes.lua")
  os.rename("a", "b")
end)
