local function leak(f)
  if f == nil then error("load returned nothing") end
  local value = f()
  if value ~= nil then return false, "leaked" end
  error("environment honoured")
end
flow.guard("target", function(op) return leak(load("return flow", nil, "t", {})) end)
flow.guard("named", function(op) return leak(load("return flow", "=chunk", "t", {})) end)
flow.guard("mode", function(op) return leak(load("return flow", nil, nil, {})) end)
flow.guard("binary", function(op) return leak(load("return flow", nil, "b", {})) end)
