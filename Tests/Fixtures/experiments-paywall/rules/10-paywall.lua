-- Kids profiles never take part in the paywall experiment.
flow.audience("paywallStyle", function(facts)
  return not facts.isKid
end)

-- Free users meet the paywall before the editor: the annualFirst arm opens the annual offer.
flow.guard("editor", function(op, stacks, ctx)
  if facts.isPremium then return true end
  if experiments.paywallStyle == "annualFirst" then
    return flow.redirect("sheet", "annualOffer", "annual offer first")
  end
  return flow.redirect("sheet", "paywall", "premium required")
end)

-- Kids never meet a paywall, in any arm.
flow.guard("paywall", function() return not facts.isKid, "no paywall for kids" end)
flow.guard("annualOffer", function() return not facts.isKid, "no paywall for kids" end)
