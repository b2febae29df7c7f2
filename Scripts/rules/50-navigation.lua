-- Navigation hygiene.
--
--   * The promo screen only ever opens as a sheet.
--   * A stack holds at most facts.maxPushDepth pushed screens above its root.

-- The operation kinds that may show the promo; the lookup yields nil for any other kind.
local PROMO_KINDS = { sheet = true, popTo = true }

flow.guard("promo", function(op, stacks, ctx)
  local allowed = PROMO_KINDS[op.kind]
  if allowed then
    return true
  end
  return allowed, "promo opens as a sheet" -- nil and a reason: block
end)

-- How many screens would sit above the front-most stack's root after the operation.
local function depthAfter(op, stacks)
  local front = stacks[#stacks]
  local added = op.routes and #op.routes or 1
  return #front.routes - 1 + added
end

local function limitDepth(op, stacks, ctx)
  if depthAfter(op, stacks) > facts.maxPushDepth then
    return false, string.format("at most %d pushed screens", facts.maxPushDepth)
  end
end

flow.precondition("push", limitDepth)
flow.precondition("pushMany", limitDepth)
