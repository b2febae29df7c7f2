-- Screen styles: what each screen looks like (flow.style.screen).
-- Rules run in order and later keys win, so the general rules come first.
-- Swift defaults: navigationBarHidden = true, multilineTextAlignment = "leading".

-- Pushed screens show a navigation bar, so that they get a back button.
flow.style.screen(function(c)
  if c.screenDepth > 0 then
    return { navigationBarHidden = false }
  end
end)

-- Titles, by route.
local TITLES = {
  projects = "Projects",
  editor = "Editor",
  settings = "Settings",
  profile = "Profile",
  orders = "Orders",
}

flow.style.screen(function(c)
  local route = c.screenRoute
  if route.name == "detail" then
    return { navigationTitle = "Project " .. route.id }
  end
  local title = TITLES[route.name]
  if title then
    return { navigationTitle = title }
  end
end)

-- Per-screen looks.
flow.style.screen(function(c)
  local name = c.screenRoute.name
  if name == "home" then
    return { background = "#F2F2F7" }
  elseif name == "paywall" then
    return { preferredColorScheme = "dark", background = "black" }
  elseif name == "login" or name == "onboarding" then
    return { multilineTextAlignment = "center" }
  elseif name == "photoPicker" then
    -- A full-bleed photo grid: no bar, even when pushed (overrides the depth rule above).
    return { navigationBarHidden = true, background = "black" }
  end
end)

-- The editor with unsaved changes has no back button and no back swipe (rules/40-editing.lua).
flow.style.screen(function(c)
  if c.screenRoute.name == "editor" and facts.hasUnsavedChanges then
    return { navigationBarBackButtonHidden = true }
  end
end)
