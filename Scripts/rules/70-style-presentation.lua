-- Stack and presentation styles (flow.style.stack, flow.style.modal).

-- Tint per presentation.
local TINTS = { root = "blue", sheet = "purple", fullScreenCover = "orange" }

flow.style.stack(function(c)
  return { tint = TINTS[c.presentation] }
end)

-- The paywall's stack uses the brand gold (overrides the tint above).
flow.style.stack(function(c)
  if c.rootRoute.name == "paywall" then
    return { tint = "#FFD60A" }
  end
end)

-- Sheets open at half height, can grow, and show their grabber.
flow.style.modal(function(c)
  if c.presentation == "sheet" then
    return { presentationDetents = { "medium", "large" }, presentationDragIndicator = "visible" }
  end
end)

-- The promo sheet has a fixed compact height first (overrides the detents above).
flow.style.modal(function(c)
  if c.rootRoute.name == "promo" then
    return { presentationDetents = { { height = 320 }, "large" } }
  end
end)

-- No swipe-down on the paywall, nor on a presented editor with unsaved changes.
flow.style.modal(function(c)
  local root = c.rootRoute.name
  if root == "paywall" then
    return { interactiveDismissDisabled = true }
  end
  if root == "editor" and facts.hasUnsavedChanges then
    return { interactiveDismissDisabled = true }
  end
end)
