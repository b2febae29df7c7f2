-- Editing: save before leaving.
--
-- While the editor is the front-most screen and has unsaved changes, code cannot take the
-- person away from it (pop, popTo, popToRoot, replaceCurrent, dismiss, dismissAll). An async
-- navigation (popAsync, dismissAsync, ...) asks the person first: host.confirmDiscard() is an
-- asynchronous host function (the app shows a "Discard changes?" alert), and leaving goes
-- ahead when they confirm. A back swipe or a swipe-down is not asked (source "user");
-- rules/60-style-screens.lua and rules/70-style-presentation.lua hide the back button and
-- disable the swipe-down instead, so the app does not offer those gestures.

local LEAVING = { "pop", "popTo", "popToRoot", "replaceCurrent", "dismiss", "dismissAll" }

-- The top route of the front-most stack.
local function frontTop(stacks)
  local front = stacks[#stacks]
  return front.routes[#front.routes]
end

local function saveBeforeLeaving(op, stacks, ctx)
  if facts.hasUnsavedChanges and frontTop(stacks).name == "editor" then
    if op.async and host.confirmDiscard() then
      return true
    end
    return false, "unsaved changes"
  end
end

for _, kind in ipairs(LEAVING) do
  flow.precondition(kind, saveBeforeLeaving)
end
