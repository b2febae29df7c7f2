flow.guard("target", function(op, stacks, ctx)
  coroutine.yield("let me out")
  return true
end)
