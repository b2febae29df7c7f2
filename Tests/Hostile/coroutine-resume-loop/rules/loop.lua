flow.guard("target", function(op, stacks, ctx)
  local co = coroutine.create(function() while true do coroutine.yield() end end)
  while true do coroutine.resume(co) end
end)
