flow.guard("target", function(op, stacks, ctx)
  return os.date(("%c"):rep(1e6)) ~= ""
end)
