flow.guard("crad", function(op)
  if not facts.isLogedIn then return false, "login required" end
end)
