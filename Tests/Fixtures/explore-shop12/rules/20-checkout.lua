-- Checkout and refunds.

-- Checkout opens from the cart, for signed-in people. (Planted: the sign-in check looks at
-- the root stack only, so a checkout pushed on a presented cart slips through.)
flow.guard("checkout", function(op, stacks, ctx)
  local front = stacks[#stacks]
  if front.routes[#front.routes].name ~= "cart" then
    return false, "checkout opens from the cart"
  end
  local root = stacks[1]
  if root.routes[#root.routes].name == "cart" and not facts.isLoggedIn then
    return flow.redirect("dialog", "signInRequired", "sign in to check out")
  end
end)

-- While a refund is pending, its sheet stays up. (Planted: nothing lets the person leave
-- it: every way out is blocked and the swipe-down is disabled: a trap.)
local LEAVING = { pop = true, popTo = true, popToRoot = true, dismiss = true, dismissAll = true,
  setRoot = true, replaceCurrent = true, replacePath = true, pushRemovingPrevious = true }

flow.precondition("*", function(op, stacks, ctx)
  local front = stacks[#stacks]
  if facts.refundPending and LEAVING[op.kind] and front.routes[1].name == "refund" then
    return false, "a refund is pending"
  end
end)

flow.style.modal(function(c)
  if c.rootRoute.name == "refund" and facts.refundPending then
    return { interactiveDismissDisabled = true }
  end
end)
