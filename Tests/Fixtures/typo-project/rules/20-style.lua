flow.style.screen(function(c)
  if c.screenRoute.name == "hom" then return { tint = "red" } end
  if facts.isPremium then
    return { tint = "purpel" }
  end
  return { navigationBarHiden = true }
end)
flow.deeplink("/cards/:id", function(p) return { flow.op("push", "card") } end)
flow.deeplink("/cards/:other", function(p) return nil end)
