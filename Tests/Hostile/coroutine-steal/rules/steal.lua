stolen = nil
flow.guard("first", function(op)
  stolen = coroutine.running()
  return true
end)
flow.guard("target", function(op)
  return coroutine.resume(stolen)
end)
flow.guard("close", function(op)
  return coroutine.close(stolen)
end)
flow.guard("main", function(op)
  return coroutine.resume(coroutine.running())
end)
