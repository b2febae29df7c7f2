flow.guard("target", function(op, stacks, ctx)
  -- two equal 2 MB strings, different objects: each == compares every byte
  local kilobyte = ("x"):rep(1024)
  local a = kilobyte:rep(2048)
  local b = kilobyte:rep(2047) .. kilobyte
  while a == b do end
end)
