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

    /// The names of the matchers `expect(v)` offers.
    static let matchers = ["to_be", "to_equal", "to_be_truthy", "to_be_falsy", "to_be_nil", "to_contain", "to_fail"]

    /// The prelude's source.
    static let source = #"""
local native = __flow_native
__flow_native = nil
local suggest, whereOf, format, failed, cleared, deepEqual, getTimeout, setTimeout =
  native.suggest, native.where, native.format, native.failed, native.cleared, native.deepEqual,
  native.getTimeout, native.setTimeout
local type, error, pcall, tostring, setmetatable, next, select, rawequal, ipairs =
  type, error, pcall, tostring, setmetatable, next, select, rawequal, ipairs
local find, sort, concat = string.find, table.sort, table.concat

local collecting = true
local levels = { { before = {}, after = {} } }
local tests = {}

local function hint(word, list)
  local close = type(word) == "string" and suggest(word, list)
  return close and (" (did you mean '" .. close .. "'?)") or ""
end

local function checkArgs(fname, name, fn, level)
  if not collecting then
    error(fname .. "() can only be called while the flow file loads (at its top level or inside describe), "
      .. "not inside a test", level + 1)
  end
  if type(name) ~= "string" then
    error("bad argument #1 to '" .. fname .. "' (string expected, got " .. type(name) .. ")", level + 1)
  end
  if type(fn) ~= "function" then
    error("bad argument #2 to '" .. fname .. "' (function expected, got " .. type(fn) .. ")", level + 1)
  end
end

function describe(name, fn)
  checkArgs("describe", name, fn, 2)
  levels[#levels + 1] = { name = name, before = {}, after = {} }
  fn()
  levels[#levels] = nil
end

function it(name, fn)
  checkArgs("it", name, fn, 2)
  local chain = {}
  for i = 1, #levels do chain[i] = levels[i] end
  tests[#tests + 1] = { name = name, fn = fn, chain = chain, where = whereOf(fn) }
end

local function hook(fname, list)
  return function(fn)
    if not collecting then
      error(fname .. "() can only be called while the flow file loads, not inside a test", 2)
    end
    if type(fn) ~= "function" then
      error("bad argument #1 to '" .. fname .. "' (function expected, got " .. type(fn) .. ")", 2)
    end
    local level = levels[#levels]
    level[list][#level[list] + 1] = fn
  end
end
before_each = hook("before_each", "before")
after_each = hook("after_each", "after")

-- Expectations. A failure records its details in Swift, then raises the message at the line
-- of the flow that called the matcher.
-- The location is read here too (level 4 from pcall: fail, the matcher, the flow), for an
-- expectation whose error a host stub's caller swallows.
local function fail(message, expected, actual)
  local _, where = pcall(error, "", 4)
  failed(message, expected, actual, where)
  error(message, 3)
end

local MATCHERS = { "to_be", "to_equal", "to_be_truthy", "to_be_falsy", "to_be_nil", "to_contain", "to_fail" }
local MATCHER_LIST = concat(MATCHERS, ", ")

local function contains(haystack, needle)
  if type(haystack) == "string" then
    if type(needle) ~= "string" and type(needle) ~= "number" then return false end
    return find(haystack, tostring(needle), 1, true) ~= nil
  end
  if type(haystack) == "table" then
    for _, item in ipairs(haystack) do
      if rawequal(item, needle) or deepEqual(item, needle) then return true end
    end
  end
  return false
end

function expect(...)
  if select("#", ...) == 0 then error("expect() needs the value to check: expect(value).to_be(expected)", 2) end
  local actual = ...
  local m = {}
  function m.to_be(expected)
    if not rawequal(actual, expected) then
      fail("expect(actual).to_be(expected): the values differ", format(expected), format(actual))
    end
  end
  function m.to_equal(expected)
    if not deepEqual(actual, expected) then
      fail("expect(actual).to_equal(expected): the values are not deeply equal", format(expected), format(actual))
    end
  end
  function m.to_be_truthy()
    if not actual then
      fail("expect(actual).to_be_truthy(): the value is " .. tostring(actual), "a truthy value (anything but nil and false)", format(actual))
    end
  end
  function m.to_be_falsy()
    if actual then
      fail("expect(actual).to_be_falsy(): the value is truthy", "nil or false", format(actual))
    end
  end
  function m.to_be_nil()
    if actual ~= nil then
      fail("expect(actual).to_be_nil(): the value is not nil", "nil", format(actual))
    end
  end
  function m.to_contain(item)
    if type(actual) ~= "table" and type(actual) ~= "string" then
      fail("expect(actual).to_contain(item): the value is a " .. type(actual) .. ", not a table or a string",
        "a table or a string containing " .. format(item), format(actual))
    end
    if not contains(actual, item) then
      local what = type(actual) == "string" and "a string containing " or "an array with the element "
      fail("expect(actual).to_contain(item): the " .. (type(actual) == "string" and "substring" or "element")
        .. " is missing", what .. format(item), format(actual))
    end
  end
  function m.to_fail(pattern)
    if type(actual) ~= "function" then
      error("expect(fn).to_fail() needs a function, got " .. type(actual)
        .. ": wrap the call, as in expect(function() router.push(\"x\") end).to_fail()", 2)
    end
    if pattern ~= nil and type(pattern) ~= "string" then
      error("bad argument #1 to 'to_fail' (pattern string expected, got " .. type(pattern) .. ")", 2)
    end
    local ok, err = pcall(actual)
    cleared()
    if ok then
      fail("expect(fn).to_fail(" .. (pattern and format(pattern) or "") .. "): the function did not fail",
        pattern and ("an error matching " .. format(pattern)) or "an error", "no error")
    end
    if pattern ~= nil then
      local text = tostring(err)
      local found = find(text, pattern, 1, true)
      if not found then
        local valid, position = pcall(find, text, pattern)
        found = valid and position
      end
      if not found then
        fail("expect(fn).to_fail(" .. format(pattern) .. "): the error does not match",
          "an error matching " .. format(pattern), "error: " .. format(text))
      end
    end
  end
  return setmetatable(m, {
    __index = function(_, key)
      error("expect(...) has no matcher '" .. tostring(key) .. "'" .. hint(key, MATCHERS)
        .. "; matchers are " .. MATCHER_LIST, 2)
    end,
  })
end

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

local function finish()
  collecting = false
  local out = {}
  for i = 1, #tests do
    local test = tests[i]
    local path, before, after = {}, {}, {}
    for j = 2, #test.chain do path[#path + 1] = test.chain[j].name end
    path[#path + 1] = test.name
    for j = 1, #test.chain do
      for _, fn in ipairs(test.chain[j].before) do before[#before + 1] = fn end
    end
    for j = #test.chain, 1, -1 do
      for _, fn in ipairs(test.chain[j].after) do after[#after + 1] = fn end
    end
    out[i] = { path = path, fn = test.fn, before = before, after = after, where = test.where }
  end
  return out
end

return finish
"""#
}
