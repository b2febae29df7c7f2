flow.guard("target", function(op)
  local t = setmetatable({}, {}); getmetatable(t).__call = t; t()
end)
flow.guard("direct", function(op)
  local t = {}
  setmetatable(t, { __call = t })
  return t()
end)
flow.guard("cycle", function(op)
  local a, b = {}, {}
  setmetatable(b, { __call = a })
end)
flow.guard("rawset", function(op)
  local mt = {}
  local t = setmetatable({}, mt)
  rawset(mt, "__call", t)
  return t()
end)
flow.guard("replaced", function(op)
  local mt = { __call = function() return true end }
  local t = setmetatable({}, mt)
  mt.__call = t
  return t()
end)
