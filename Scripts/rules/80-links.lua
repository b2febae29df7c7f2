-- Deep links (docs/lua-surface.md, section 6): which URLs open which screens.
--
-- routes.lua accepts the myapp:// scheme and https links to example.com. Every plan runs as
-- one transaction checked by the rules above, so a signed-out user following a link gets the
-- login screen, and the link is held and retried once they have signed in; a free user
-- following a link to the editor gets the paywall, and the link opens after the purchase.

-- myapp://projects/42, https://example.com/projects/42: the project's detail, above home (on the
-- home tab, whichever tab was selected).
flow.deeplink("/projects/:id", function(p)
  return {
    flow.op("selectTab", "home"),
    flow.op("setRoot", "home"),
    flow.op("push", "projects"),
    flow.op("push", { name = "detail", id = p.id }),
  }
end)

-- myapp://projects/42/edit: straight into the editor (a premium feature).
flow.deeplink("/projects/:id/edit", function(p)
  return {
    flow.op("selectTab", "home"),
    flow.op("setRoot", "home"),
    flow.op("push", { name = "detail", id = p.id }),
    flow.op("push", { name = "editor", id = p.id }),
  }
end)

-- myapp://invites/<code>: home, then the "invite accepted" dialog (shown only if the whole plan
-- applies, through the dialog rules).
flow.deeplink("/invites/:code", function(p)
  return {
    flow.op("selectTab", "home"),
    flow.op("setRoot", "home"),
    flow.op("showDialog", { id = "inviteAccepted", code = p.code }),
  }
end)

-- myapp://settings: settings, on top of whatever the selected tab shows.
flow.deeplink("/settings", function()
  return { flow.op("dismissAll"), flow.op("push", "settings") }
end)

-- myapp://promo/<campaign>?source=...: the promo sheet (campaigns are not screens).
flow.deeplink("/promo/*", function(p)
  if p["*"] == "" then
    return nil -- no campaign: unhandled
  end
  return { flow.op("sheet", "promo") }
end)
