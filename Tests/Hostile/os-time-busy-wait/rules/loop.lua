flow.guard("target", function(op, stacks, ctx)
  local deadline = os.time() + 3600
  while os.time() < deadline do end
end)
