flow.guard("target", function(op)
  return false, "guarded target at rules/b-guard.lua:2"
end)
flow.guard("ok", function(op) return true end)
