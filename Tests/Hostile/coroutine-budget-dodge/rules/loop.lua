flow.guard("target", function(op, stacks, ctx)
  -- each coroutine would get a fresh budget if budgets were per thread
  while true do
    coroutine.wrap(function() for i = 1, 1e5 do end end)()
  end
end)
