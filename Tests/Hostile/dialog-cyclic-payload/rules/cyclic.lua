flow.guard("target", function(op)
  local t = { id = "a" }
  t.self = t
  return flow.redirect("dialog", t)
end)
flow.dialog_guard("b", function(dialog)
  local t = { id = "c" }
  t.self = t
  return flow.redirect("dialog", t)
end)
