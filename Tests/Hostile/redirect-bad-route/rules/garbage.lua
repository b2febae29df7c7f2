flow.guard("target", function(op, stacks, ctx)
  local target = flow.redirect("push", 42)
  return target
end)
