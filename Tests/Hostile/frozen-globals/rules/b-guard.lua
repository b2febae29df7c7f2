flow.guard("paywall", function(op)
  return flow.redirect("push", "after", string.format("paywall %s", tostring(rawget(host, "allow") == nil)))
end)
