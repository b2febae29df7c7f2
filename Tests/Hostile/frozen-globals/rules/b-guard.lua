flow.guard("paywall", function(op)
  return flow.redirect("push", "after", string.format("paywall %s", tostring(not pcall(host.allow))))
end)
