flow.guard("target", function(op, stacks, ctx)
  -- the header of a Lua 5.4 binary chunk; load refuses binary chunks in every mode
  local bytes = "\27Lua\84\0\25\147\13\10\26\10\4\8\8\120\86\0\0\0\0\0\0\0\0\0\0\0\40\119\64\1"
  local chunk, problem = load(bytes, "=bin", "b")
  assert(chunk, problem)
  return chunk()
end)
