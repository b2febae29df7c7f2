flow.guard("target", function(op, stacks, ctx)
  local s = (" "):rep(5000) .. "x"
  return (s:gsub("%s*%s*%s*y", "")) ~= s
end)
