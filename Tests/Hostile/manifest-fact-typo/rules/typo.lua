flow.guard("editor", function()
  if not facts.isPremuim then
    return flow.redirect("sheet", "paywall")
  end
end)
