-- Tab selection is a navigation like any other: kind "selectTab", the tab in op.tab, the
-- selected one in ctx.tab.

-- The profile tab needs a signed-in person: a signed-out tap shows the sign-in sheet instead.
flow.precondition("selectTab", function(op, stacks, ctx)
  if op.tab == "profile" and not facts.isLoggedIn then
    return flow.redirect("sheet", "signIn", "sign in to see your profile")
  end
end)

-- Settings are reached only from the profile tab.
flow.guard("settings", function(op, stacks, ctx)
  if ctx.tab ~= "profile" then
    return false, "settings live in the profile tab, not " .. tostring(ctx.tab)
  end
end)

-- A link lands in its tab: select it, pop it to its root, push the screen there. The other
-- tabs keep their stacks.
flow.deeplink("/posts/:id", function(p)
  return {
    flow.op("dismissAll"),
    flow.op("selectTab", "feed"),
    flow.op("popToRoot"),
    flow.op("push", { name = "post", id = p.id }),
  }
end)

-- Style by tab: the search tab shows its navigation bar on its root screen (hidden by
-- default).
flow.style.screen(function(c)
  if c.tab == "search" and c.isRootScreen and c.isRootStack then
    return { navigationBarHidden = false }
  end
end)
