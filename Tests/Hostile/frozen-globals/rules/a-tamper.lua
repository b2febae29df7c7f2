local attempts = {
  function() flow.redirect = function() return true end end,
  function() flow = { guard = flow.guard } end,
  function() rawset(_G, "flow", {}) end,
  function() flow.style.screen = nil end,
  function() host.allow = function() return true end end,
  function() string.format = function() return "" end end,
  function() string = {} end,
  function() getmetatable("").__index = {} end,
  function() table.concat = nil end,
  function() math.max = nil end,
  function() setmetatable(string, nil) end,
  function() tostring = nil end,
}
flow.guard("probe", function(op)
  local failed = 0
  for _, attempt in ipairs(attempts) do if not pcall(attempt) then failed = failed + 1 end end
  return false, "failed " .. failed
end)
flow.guard("target", function(op)
  flow.redirect = function() return true end
end)
