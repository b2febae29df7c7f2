flow.guard("target", function(op, stacks, ctx)
  return dofile("/etc/passwd")
end)
