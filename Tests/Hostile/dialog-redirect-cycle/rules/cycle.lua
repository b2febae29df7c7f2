flow.dialog_guard("a", function(dialog) return flow.redirect("dialog", "b", "a sends to b") end)
flow.dialog_guard("b", function(dialog) return flow.redirect("dialog", { id = "a", round = (dialog.round or 0) + 1 }, "b sends to a") end)
flow.guard("target", function(op) return flow.redirect("dialog", "a") end)
