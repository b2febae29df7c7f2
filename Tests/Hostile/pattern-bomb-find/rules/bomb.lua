flow.guard("target", function(op, stacks, ctx)
  local s = ("a"):rep(400)
  return s:find(".-.-.-b") ~= nil
end)
