flow.style.screen(function(c)
  pcall(function() c.screenDepth = 42 end)
  pcall(function() c.screenRoute.name = "hijacked" end)
  pcall(rawset, c, "isRootScreen", false)
  pcall(setmetatable, c, nil)
end)
flow.style.screen(function(c)
  return { navigationTitle = c.screenRoute.name .. " " .. c.screenDepth .. " " .. tostring(c.isRootScreen) }
end)
flow.style.stack(function(c)
  return setmetatable({ tint = "blue" }, { __pairs = function() return math.max, 1, 0 end })
end)
flow.guard("target", function(op)
  local c = { screenDepth = 1 }
  c.screenDepth = nil
  error("styles are contained")
end)
