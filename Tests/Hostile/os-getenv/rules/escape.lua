flow.guard("target", function(op, stacks, ctx)
  return os.getenv("HOME") ~= nil
end)
