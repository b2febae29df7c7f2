flow.guard("target", function(op, stacks, ctx)
  local f = io.open("/etc/passwd")
  return f ~= nil
end)
