flow.guard("target", function(op, stacks, ctx)
  local a = ("x"):rep(4e6)
  local b = ("x"):rep(4e6 - 1) .. "x"
  while a == b do end
end)
