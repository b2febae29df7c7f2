flow.dialog_guard("*", function(dialog, stacks, ctx)
  while true do end
end)
