-- v2: the annualFirst arm lets kids reach the annual offer (a planted mistake, in that arm only).
flow.audience("paywallStyle", function(facts)
  return not facts.isKid
end)

flow.guard("editor", function(op, stacks, ctx)
  if facts.isPremium then return true end
  if experiments.paywallStyle == "annualFirst" then
    return flow.redirect("fullScreenCover", "annualOffer", "annual offer first")
  end
  return flow.redirect("sheet", "paywall", "premium required")
end)

flow.guard("paywall", function() return not facts.isKid, "no paywall for kids" end)
