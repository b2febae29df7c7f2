-- Tries to take apart the op, ctx and stacks every synchronous decision shares, so that the
-- rules after it, and later decisions, would see something else.
local function attempts(op, stacks, ctx)
  local failures = 0
  local tries = {
    function() setmetatable(op, nil) end,
    function() rawset(op, "kind", "pop") end,
    function() op.kind = "pop" end,
    function() setmetatable(ctx, nil) end,
    function() rawset(ctx, "dialog", "sessionExpired") end,
    function() setmetatable(stacks, nil) end,
    function() rawset(stacks, 1, {}) end,
    function() rawset(stacks[1].routes, 1, { name = "root" }) end,
  }
  for _, try in ipairs(tries) do
    if not pcall(try) then failures = failures + 1 end
  end
  return failures
end

local seenKind, seenRoute

flow.precondition("*", function(op, stacks, ctx)
  seenKind, seenRoute = op.kind, op.route and op.route.name
  local failures = attempts(op, stacks, ctx)
  if failures ~= 8 then return false, "tampering succeeded " .. (8 - failures) .. " times" end
end)

-- Runs after the tampering rule in every decision: what it reads must be the router's truth.
flow.precondition("*", function(op, stacks, ctx)
  if getmetatable(op) ~= "read-only" or getmetatable(ctx) ~= "read-only" then
    return false, "a metatable changed"
  end
  if ctx.dialog ~= nil then return false, "ctx.dialog changed" end
  if op.kind ~= seenKind or (op.route and op.route.name) ~= seenRoute then
    return false, "op changed"
  end
  if stacks[1].routes[1].name ~= "root" then return false, "stacks changed" end
end)

-- The last word: a guard that writes straight to op fails closed at its line.
flow.guard("forbidden", function(op)
  op.kind = "setRoot"
end)
