/// The Lua half of the flow-test runner, run in every flow VM before the flow file.
///
/// It defines `describe`, `it`, `before_each`, `after_each` and `expect`, and makes the `app`
/// and `router` tables (whose functions Swift registered) strict: an unknown name is an error
/// with a "did you mean" suggestion. Swift helpers arrive in the hidden global `__flow_native`,
/// which the prelude removes. The chunk returns `finish`, which Swift calls once the flow file
/// has run: it ends the collection and returns the tests.
enum FlowTestPrelude {
    /// The chunk name errors inside the prelude report.
    static let chunkName = "=flowstack"

    /// The names of the matchers `expect(v)` offers (each also as `not_<name>` and after `.never`).
    static let matchers = [
        "to_be", "to_equal", "to_be_truthy", "to_be_falsy", "to_be_nil", "to_contain", "to_fail", "to_match",
        "to_have_length", "to_be_a", "to_be_greater_than", "to_be_less_than", "to_be_at_least", "to_be_at_most",
        "to_have_been_called", "to_have_been_called_times", "to_have_been_called_with", "to_match_steps",
    ]

    /// The prelude's source: the collection functions, then `expect` and its matchers.
    static let source = collection + FlowTestMatchers.source + strictTables

    /// `describe`, `it`, `pending`, the hooks and `spy`.
    static let collection = #"""
local native = __flow_native
__flow_native = nil
local suggest, whereOf, format, failed, cleared, deepEqual, getTimeout, setTimeout =
  native.suggest, native.where, native.format, native.failed, native.cleared, native.deepEqual,
  native.getTimeout, native.setTimeout
local type, error, pcall, xpcall, tostring, setmetatable, getmetatable, next, select, rawequal, ipairs, pairs, rawget =
  type, error, pcall, xpcall, tostring, setmetatable, getmetatable, next, select, rawequal, ipairs, pairs, rawget
local find, match, gsub, sub, sort, concat = string.find, string.match, string.gsub, string.sub, table.sort, table.concat
local mathType = math.type

local collecting = true
local levels = { { id = 1, before = {}, after = {}, before_all = {}, after_all = {} } }
local levelCount = 1
local tests = {}

local function hint(word, list)
  local close = type(word) == "string" and suggest(word, list)
  return close and (" (did you mean '" .. close .. "'?)") or ""
end

local function notWhileRunning(fname, level)
  if not collecting then
    error(fname .. "() can only be called while the flow file loads (at its top level or inside describe), "
      .. "not inside a test", level + 1)
  end
end

local function checkArgs(fname, name, fn, level)
  notWhileRunning(fname, level + 1)
  if type(name) ~= "string" then
    error("bad argument #1 to '" .. fname .. "' (string expected, got " .. type(name) .. ")", level + 1)
  end
  if type(fn) ~= "function" then
    error("bad argument #2 to '" .. fname .. "' (function expected, got " .. type(fn) .. ")", level + 1)
  end
end

-- "flows/a.lua:12" of the code `level` levels above the caller of this function.
local function callerLocation(level)
  local _, at = pcall(error, "", level + 3)
  return match(at, "^(.-:%d+):") or "?"
end

function describe(name, fn)
  checkArgs("describe", name, fn, 2)
  levelCount = levelCount + 1
  levels[#levels + 1] = { id = levelCount, name = name, before = {}, after = {}, before_all = {}, after_all = {} }
  fn()
  levels[#levels] = nil
end

local function addTest(name, fn, where, isPending)
  local chain = {}
  for i = 1, #levels do chain[i] = levels[i] end
  tests[#tests + 1] = { name = name, fn = fn, chain = chain, where = where, pending = isPending }
end

function it(name, fn)
  if fn == nil and type(name) == "string" then
    notWhileRunning("it", 2)
    addTest(name, nil, callerLocation(1), true)
    return
  end
  checkArgs("it", name, fn, 2)
  addTest(name, fn, whereOf(fn), false)
end

function pending(name, fn)
  notWhileRunning("pending", 2)
  if type(name) ~= "string" then
    error("bad argument #1 to 'pending' (string expected, got " .. type(name) .. ")", 2)
  end
  if fn ~= nil and type(fn) ~= "function" then
    error("bad argument #2 to 'pending' (function or nothing expected, got " .. type(fn) .. ")", 2)
  end
  addTest(name, nil, fn and whereOf(fn) or callerLocation(1), true)
end

local function hook(fname, list)
  return function(fn)
    notWhileRunning(fname, 2)
    if type(fn) ~= "function" then
      error("bad argument #1 to '" .. fname .. "' (function expected, got " .. type(fn) .. ")", 2)
    end
    local level = levels[#levels]
    level[list][#level[list] + 1] = fn
  end
end
before_each = hook("before_each", "before")
after_each = hook("after_each", "after")
before_all = hook("before_all", "before_all")
after_all = hook("after_all", "after_all")
setup = hook("setup", "before_all")
teardown = hook("teardown", "after_all")

-- A spy: a callable that records its calls ({ arg1, arg2, ... } each) in `calls` and
-- returns what `fn` returns.
function spy(fn)
  if fn ~= nil and type(fn) ~= "function" then
    error("bad argument #1 to 'spy' (function or nothing expected, got " .. type(fn) .. ")", 2)
  end
  local calls = {}
  return setmetatable({ calls = calls }, {
    __call = function(_, ...)
      calls[#calls + 1] = { ... }
      if fn then return fn(...) end
    end,
    __len = function() return #calls end,
    __name = "spy",
  })
end

-- Errors a test raises: error objects that are not strings become text (their __tostring, or
-- the value as Lua source), with the place that raised them.
local function describeError(e)
  if type(e) == "string" and find(e, "^[^\n]-:%d+: ") then return e end
  local text = e
  if type(e) ~= "string" then
    local mt = getmetatable(e)
    text = (type(mt) == "table" and rawget(mt, "__tostring")) and tostring(e) or ("error object " .. format(e))
  end
  for level = 3, 8 do
    local _, at = pcall(error, "", level)
    local where = match(at, "^(.-:%d+):")
    if where and not find(where, "^=?flowstack:") then return where .. ": " .. text end
  end
  return text
end

local function protected(fn)
  return function()
    local ok, err = xpcall(fn, describeError)
    if not ok then error(err, 0) end
  end
end

"""#

    /// `app` and `router` made strict, and `finish`, the chunk's result.
    static let strictTables = #"""

-- `app` and `router`: unknown names are errors with a suggestion; router.pendingLinkTimeout
-- reads and sets the deep-link timeout.
local function strict(t, name, properties)
  local known = {}
  for key in next, t do known[#known + 1] = key end
  for key in next, properties do known[#known + 1] = key end
  sort(known)
  setmetatable(t, {
    __index = function(_, key)
      local property = properties[key]
      if property then return property.get() end
      error(name .. " has no field '" .. tostring(key) .. "'" .. hint(key, known) .. "; it has " .. concat(known, ", "), 2)
    end,
    __newindex = function(_, key, value)
      local property = properties[key]
      if property and property.set then return property.set(value) end
      error(name .. "." .. tostring(key) .. " cannot be assigned"
        .. (properties[key] and "" or (hint(key, known) .. "; assignable: router.pendingLinkTimeout")), 2)
    end,
  })
end

strict(app, "app", {})
strict(router, "router", { pendingLinkTimeout = { get = getTimeout, set = setTimeout } })

local function wrapAll(list)
  local out = {}
  for i, fn in ipairs(list) do out[i] = protected(fn) end
  return out
end

local function finish()
  collecting = false
  local out = {}
  for i = 1, #tests do
    local test = tests[i]
    local path, before, after, blocks = {}, {}, {}, {}
    for j = 2, #test.chain do path[#path + 1] = test.chain[j].name end
    path[#path + 1] = test.name
    for j = 1, #test.chain do
      for _, fn in ipairs(test.chain[j].before) do before[#before + 1] = protected(fn) end
      local level = test.chain[j]
      level.wrapped = level.wrapped or { id = level.id, before_all = wrapAll(level.before_all), after_all = wrapAll(level.after_all) }
      blocks[j] = level.wrapped
    end
    for j = #test.chain, 1, -1 do
      for _, fn in ipairs(test.chain[j].after) do after[#after + 1] = protected(fn) end
    end
    out[i] = {
      path = path, fn = test.fn and protected(test.fn), before = before, after = after, where = test.where,
      pending = test.pending, blocks = blocks,
    }
  end
  return out
end

return finish
"""#
}
