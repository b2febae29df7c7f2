-- The onboarding experiment: the tour arm shows a tour before the editor's first push.
flow.guard("tour", function()
  return experiments.onboarding == "tour", "the tour is for the tour arm"
end)
