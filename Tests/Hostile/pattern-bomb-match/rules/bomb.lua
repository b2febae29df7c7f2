flow.guard("target", function(op, stacks, ctx)
  local s = ("a"):rep(30)
  return s:match(("a?"):rep(30) .. ("a"):rep(30) .. "b") ~= nil
end)
