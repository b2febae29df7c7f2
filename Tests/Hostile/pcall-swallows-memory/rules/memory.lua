flow.guard("target", function(op, stacks, ctx)
  local ok = pcall(string.rep, "x", 2^24, "yy")
  if not ok then return true end
end)
