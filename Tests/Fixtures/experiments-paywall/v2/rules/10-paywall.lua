-- v2 changes the annualFirst arm only: the annual offer is to show after the editor now, and
-- the arm lets everyone in (a planted mistake: free users reach the editor in that arm).
flow.audience("paywallStyle", function(facts)
  return not facts.isKid
end)

flow.guard("editor", function(op, stacks, ctx)
  if experiments.paywallStyle == "annualFirst" then return true end
  if facts.isPremium then return true end
  return flow.redirect("sheet", "paywall", "premium required")
end)

flow.guard("paywall", function() return not facts.isKid, "no paywall for kids" end)
flow.guard("annualOffer", function() return not facts.isKid, "no paywall for kids" end)
