-- at load: try to hijack every string method of this VM
getmetatable("").__index = function() error("hijacked") end
getmetatable("").__metatable = nil
flow.guard("target", function(op, stacks, ctx)
  local ok = pcall(setmetatable, "", {})
  error("string methods still work: " .. ("ok"):upper() .. ", setmetatable on a string refused: " .. tostring(not ok))
end)
