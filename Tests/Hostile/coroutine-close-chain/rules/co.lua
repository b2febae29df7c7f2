local function chain(n)
  local co = coroutine.create(function()
    local link <close> = setmetatable({}, { __close = function()
      if n > 0 then
        local ok, err = coroutine.close(chain(n - 1))
        if not ok then error(err, 0) end
      end
    end })
    coroutine.yield()
  end)
  coroutine.resume(co)
  return co
end
flow.guard("target", function(op)
  local ok, err = coroutine.close(chain(5000))
  if not ok then error(err, 0) end
end)
flow.guard("wrapped", function(op)
  local function deep(n)
    return coroutine.wrap(function()
      local link <close> = setmetatable({}, { __close = function() if n > 0 then deep(n - 1)() end end })
      coroutine.yield()
    end)
  end
  local f = deep(5000)
  f()
  return coroutine.close(coroutine.running())
end)
