flow.style.screen(function(c)
  return 42
end)
flow.style.modal(function(c)
  return { tint = {}, presentationDetents = "everything", bogus = true, navigationTitle = 5 }
end)
flow.guard("target", function()
  return flow.redirect("sheet", "modal", "styles do not break decisions")
end)
