flow.guard("target", function(op)
  local mt = getmetatable(flow.redirect("push", "after"))
  mt.__gc = function() end
end)
flow.guard("forge", function(op)
  return setmetatable({ kind = {}, route = "after" }, getmetatable(flow.redirect("push", "after")))
end)
