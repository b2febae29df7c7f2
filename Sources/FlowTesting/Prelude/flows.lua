-- The Lua half of the flow-test runner (FlowTestPrelude.swift loads it, chunk name "@flows.lua"),
-- run in every flow VM before the flow file: `describe`, `it`, the hooks, `spy`, `expect` and its
-- matchers, and the strict `app` and `router` tables. Swift helpers arrive in the hidden global
-- `__flow_native`. The chunk returns `{ finish = finish }`: Swift calls `finish` once the flow file
-- has run.
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
    if where and not find(where, "^@flows%.lua:") then return where .. ": " .. text end
  end
  return text
end

local function protected(fn)
  return function()
    local ok, err = xpcall(fn, describeError)
    if not ok then error(err, 0) end
  end
end
-- Expectations. A failure records its details in Swift, then raises the message at the line
-- of the flow that called the matcher. The location is read here too (level 4 from pcall:
-- fail, the matcher, the flow), for an expectation whose error a host stub's caller swallows,
-- with the flow lines that led there (a matcher inside a helper function).
local function fail(message, expected, actual, diff)
  local _, where = pcall(error, "", 4)
  local trace = {}
  for level = 5, 16 do
    local _, at = pcall(error, "", level)
    local place = match(at, "^(.-:%d+):")
    if place and not find(place, "^@flows%.lua:") and #trace < 5 then trace[#trace + 1] = place end
  end
  failed(message, expected, actual, where, concat(trace, "\n"), diff and concat(diff, "\n") or nil)
  error(message, 3)
end

-- The matcher names are Swift's list (FlowTestPrelude.matchers, which `flowstack check` and
-- `flowstack types` know too); each has its CHECKS entry below, as checked once they are defined.
local MATCHERS = native.matchers
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

local function keyOrder(a, b)
  if type(a) ~= type(b) then return type(a) < type(b) end
  if type(a) == "number" or type(a) == "string" then return a < b end
  return tostring(a) < tostring(b)
end

-- Where two tables differ, one line per difference (at most 12): `.name: expected "a", got "b"`.
local function diff(expected, actual, path, out)
  if #out >= 12 then return end
  if type(expected) ~= "table" or type(actual) ~= "table" then
    out[#out + 1] = (path == "" and "the value" or path) .. ": expected " .. format(expected) .. ", got " .. format(actual)
    return
  end
  local keys, seen = {}, {}
  for k in next, expected do keys[#keys + 1] = k; seen[k] = true end
  for k in next, actual do if not seen[k] then keys[#keys + 1] = k end end
  sort(keys, keyOrder)
  for _, k in ipairs(keys) do
    if #out >= 12 then
      if out[#out] ~= "..." then out[#out + 1] = "..." end -- once, however deep the cut
      return
    end
    local at = path .. ((type(k) == "string" and match(k, "^[%a_][%w_]*$")) and ("." .. k) or ("[" .. format(k) .. "]"))
    local e, a = expected[k], actual[k]
    if e == nil then
      out[#out + 1] = at .. ": not expected, got " .. format(a)
    elseif a == nil then
      out[#out + 1] = at .. ": missing, expected " .. format(e)
    elseif not (rawequal(e, a) or deepEqual(e, a)) then
      diff(e, a, at, out)
    end
  end
end

-- The calls of a spy (spy(fn)) or a list of calls (app.calls(name)).
local function callsOf(value)
  if type(value) ~= "table" then return nil end
  local calls = rawget(value, "calls")
  if type(calls) == "table" then return calls end
  return value
end

-- A history entry as one line: `push editor`, `push editor blocked: premium required`,
-- `showDialog cartEmpty`.
local function stepText(entry)
  local op = entry.op or {}
  local text = tostring(op.kind)
  if type(op.dialog) == "string" then
    text = text .. " " .. op.dialog
  elseif type(op.tab) == "string" then
    text = text .. " " .. op.tab
  elseif type(op.route) == "table" then
    text = text .. " " .. tostring(op.route.name)
  elseif type(op.routes) == "table" then
    local names = {}
    for i, route in ipairs(op.routes) do names[i] = tostring(route.name) end
    text = text .. " " .. concat(names, ",")
  elseif op.count and op.count ~= 1 then
    text = text .. " " .. tostring(op.count)
  end
  -- A held navigation run again (and the dismissal of its redirect's presentation).
  if op.source == "resume" then text = text .. " (resume)" end
  -- A step the facts rules (flow.on_facts_changed) asked for when facts changed.
  if op.source == "facts" then text = text .. " (facts)" end
  if not entry.applied then text = text .. " blocked" end
  if entry.reason then text = text .. ": " .. entry.reason end
  return text
end

local function normalizedStep(text)
  text = gsub(text, " redirected:", " blocked:")
  text = gsub(text, " refused:", " blocked:")
  text = gsub(text, " failed:", " blocked:")
  text = gsub(text, " redirected$", " blocked")
  text = gsub(text, " refused$", " blocked")
  text = gsub(text, " failed$", " blocked")
  text = gsub(text, " applied$", "")
  return text
end

local function stepMatches(expected, actual)
  return actual == expected or (not find(expected, ":", 1, true) and sub(actual, 1, #expected + 1) == expected .. ":")
end

-- A mistake in how a matcher is called, raised at the flow's line (`depth` extra helper levels).
local function usage(message, depth) error(message, 4 + (depth or 0)) end

local function number(value, name)
  if type(value) ~= "number" then usage("expect(actual)." .. name .. "(n) needs a number, got " .. type(value), 2) end
end

-- Each matcher: function(actual, ...) returning whether it holds, why it does not, why it
-- should not (for .never), expected and actual as text, and a diff.
local CHECKS = {}

function CHECKS.to_be(actual, expected)
  local why = "the values differ"
  if type(actual) == "table" and type(expected) == "table" and deepEqual(actual, expected) then
    -- luassert's `equals` versus `same`: the mistake a busted user makes first.
    why = "two tables with the same contents are still two tables: to_be compares with rawequal, "
      .. "to_equal(expected) compares contents"
  end
  return rawequal(actual, expected), why, "the values are the same", format(expected), format(actual)
end

function CHECKS.to_equal(actual, expected)
  local equal = deepEqual(actual, expected)
  local lines
  local shownExpected, shownActual = format(expected), format(actual)
  if not equal and type(actual) == "table" and type(expected) == "table" and #shownExpected + #shownActual > 120 then
    lines = {}
    diff(expected, actual, "", lines)
  end
  return equal, "the values are not deeply equal", "the values are deeply equal", shownExpected, shownActual, lines
end

function CHECKS.to_be_truthy(actual)
  return not not actual, "the value is " .. tostring(actual), "the value is truthy",
    "a truthy value (anything but nil and false)", format(actual)
end

function CHECKS.to_be_falsy(actual)
  return not actual, "the value is truthy", "the value is " .. tostring(actual), "nil or false", format(actual)
end

function CHECKS.to_be_nil(actual)
  return actual == nil, "the value is not nil", "the value is nil", "nil", format(actual)
end

function CHECKS.to_contain(actual, item)
  if type(actual) ~= "table" and type(actual) ~= "string" then
    return false, "the value is a " .. type(actual) .. ", not a table or a string", "the value is a " .. type(actual),
      "a table or a string containing " .. format(item), format(actual)
  end
  local what = type(actual) == "string" and "substring" or "element"
  return contains(actual, item), "the " .. what .. " is missing", "the " .. what .. " is there",
    (type(actual) == "string" and "a string containing " or "an array with the element ") .. format(item), format(actual)
end

function CHECKS.to_match(actual, pattern)
  if type(pattern) ~= "string" then usage("bad argument #1 to 'to_match' (pattern string expected, got " .. type(pattern) .. ")") end
  if type(actual) ~= "string" then
    return false, "the value is a " .. type(actual) .. ", not a string", "the value is a " .. type(actual),
      "a string matching " .. format(pattern), format(actual)
  end
  local valid, found = pcall(find, actual, pattern)
  if not valid then usage("to_match: bad Lua pattern " .. format(pattern) .. ": " .. tostring(found)) end
  return found ~= nil, "the string does not match", "the string matches",
    "a string matching " .. format(pattern), format(actual)
end

function CHECKS.to_have_length(actual, n)
  number(n, "to_have_length")
  local calls = type(actual) == "table" and rawget(actual, "calls")
  local length
  if type(actual) == "string" then length = #actual
  elseif type(calls) == "table" then length = #calls
  elseif type(actual) == "table" then length = #actual
  else usage("expect(actual).to_have_length(n) needs a string or a table, got " .. type(actual)) end
  return length == n, "the length is " .. length, "the length is " .. length, "length " .. n,
    "length " .. length .. ": " .. format(actual)
end

function CHECKS.to_be_a(actual, typeName)
  if type(typeName) ~= "string" then usage("bad argument #1 to 'to_be_a' (type name expected, got " .. type(typeName) .. ")") end
  local actualType = type(actual)
  local holds = actualType == typeName
  if actualType == "number" and (typeName == "integer" or typeName == "float") then
    holds = mathType(actual) == typeName
  end
  return holds, "the value is a " .. actualType, "the value is a " .. typeName, "a " .. typeName,
    actualType .. " " .. format(actual)
end

local function comparison(name, symbol, test)
  CHECKS[name] = function(actual, bound)
    if not ((type(actual) == "number" and type(bound) == "number") or (type(actual) == "string" and type(bound) == "string")) then
      usage("expect(actual)." .. name .. "(x) compares two numbers or two strings, got " .. type(actual) .. " and " .. type(bound))
    end
    return test(actual, bound), "the value is not " .. symbol .. " " .. format(bound),
      "the value is " .. symbol .. " " .. format(bound), symbol .. " " .. format(bound), format(actual)
  end
end
comparison("to_be_greater_than", ">", function(a, b) return a > b end)
comparison("to_be_less_than", "<", function(a, b) return a < b end)
comparison("to_be_at_least", ">=", function(a, b) return a >= b end)
comparison("to_be_at_most", "<=", function(a, b) return a <= b end)

local function spyCalls(actual, name)
  local calls = callsOf(actual)
  if not calls then
    usage("expect(spy)." .. name .. "() needs a spy (spy(fn)) or app.calls(\"hostName\"), got " .. type(actual), 1)
  end
  return calls
end

-- "1 call", "2 calls"; "1 time", "2 times".
local function counted(n, noun)
  return tostring(n) .. " " .. noun .. (n == 1 and "" or "s")
end

function CHECKS.to_have_been_called(actual)
  local calls = spyCalls(actual, "to_have_been_called")
  return #calls > 0, "it was never called", "it was called " .. counted(#calls, "time"), "at least one call",
    counted(#calls, "call")
end

function CHECKS.to_have_been_called_times(actual, n)
  local calls = spyCalls(actual, "to_have_been_called_times")
  number(n, "to_have_been_called_times")
  return #calls == n, "it was called " .. counted(#calls, "time"), "it was called " .. counted(n, "time"),
    counted(n, "call"), counted(#calls, "call") .. ": " .. format(calls)
end

function CHECKS.to_have_been_called_with(actual, ...)
  local calls = spyCalls(actual, "to_have_been_called_with")
  local wanted = { ... }
  for _, call in ipairs(calls) do
    if deepEqual(call, wanted) then
      return true, "", "it was called with these arguments", "no call with " .. format(wanted), format(calls)
    end
  end
  return false, "no call had these arguments", "", "a call with " .. format(wanted), format(calls)
end

function CHECKS.to_match_steps(actual, steps)
  if type(steps) ~= "table" then usage("bad argument #1 to 'to_match_steps' (a list of step strings expected, got " .. type(steps) .. ")") end
  if type(actual) ~= "table" then usage("expect(router.history()).to_match_steps{...} needs the history, got " .. type(actual)) end
  local actualSteps, expectedSteps, lines = {}, {}, {}
  for i, entry in ipairs(actual) do actualSteps[i] = stepText(entry) end
  for i, step in ipairs(steps) do
    if type(step) ~= "string" then usage("to_match_steps: step " .. i .. " must be a string, as in \"push editor blocked: premium required\"") end
    expectedSteps[i] = normalizedStep(step)
  end
  local count = #expectedSteps > #actualSteps and #expectedSteps or #actualSteps
  for i = 1, count do
    local e, a = expectedSteps[i], actualSteps[i]
    if e == nil then lines[#lines + 1] = "step " .. i .. ": not expected, got " .. format(a)
    elseif a == nil then lines[#lines + 1] = "step " .. i .. ": missing, expected " .. format(e)
    elseif not stepMatches(e, a) then lines[#lines + 1] = "step " .. i .. ": expected " .. format(e) .. ", got " .. format(a) end
  end
  return #lines == 0, "the history differs", "the history matches", format(steps), format(actualSteps),
    #lines > 0 and lines or nil
end

function CHECKS.to_fail(actual, pattern)
  if type(actual) ~= "function" then
    usage("expect(fn).to_fail() needs a function, got " .. type(actual)
      .. ": wrap the call, as in expect(function() router.push(\"x\") end).to_fail()")
  end
  if pattern ~= nil and type(pattern) ~= "string" then
    usage("bad argument #1 to 'to_fail' (pattern string expected, got " .. type(pattern) .. ")")
  end
  local ok, err = pcall(actual)
  cleared()
  local wanted = pattern and ("an error matching " .. format(pattern)) or "an error"
  if ok then return false, "the function did not fail", "", wanted, "no error" end
  local text = describeError(err)
  if pattern ~= nil then
    local found = find(text, pattern, 1, true)
    if not found then
      local valid, position = pcall(find, text, pattern)
      found = valid and position
    end
    if not found then return false, "the error does not match", "", wanted, "error: " .. format(text) end
  end
  return true, "", "the function failed", pattern and ("no error matching " .. format(pattern)) or "no error",
    "error: " .. format(text)
end

-- Swift's matcher list and the CHECKS written here name the same matchers (checked at load).
do
  local listed = {}
  for i = 1, #MATCHERS do
    listed[MATCHERS[i]] = true
    if CHECKS[MATCHERS[i]] == nil then
      error("the flow prelude has no matcher '" .. MATCHERS[i] .. "' of Swift's list (FlowTestPrelude.matchers): "
        .. "write CHECKS." .. MATCHERS[i] .. " in Prelude/flows.lua or remove the name", 0)
    end
  end
  for name in next, CHECKS do
    if not listed[name] then
      error("the flow prelude's matcher '" .. name .. "' is missing from Swift's list (FlowTestPrelude.matchers): "
        .. "add it there", 0)
    end
  end
end

local SUBJECTS = { to_fail = "fn", to_have_been_called = "spy", to_have_been_called_times = "spy",
  to_have_been_called_with = "spy", to_match_steps = "router.history()" }
local PARAMETERS = { to_be = "expected", to_equal = "expected", to_contain = "item", to_match = "pattern",
  to_have_length = "n", to_be_a = "typeName", to_be_greater_than = "x", to_be_less_than = "x", to_be_at_least = "x",
  to_be_at_most = "x", to_have_been_called_times = "n", to_have_been_called_with = "...", to_match_steps = "steps" }

-- How the failed call is shown: expect(actual).to_equal(expected), expect(fn).to_fail("x").
local function callText(name, negated, ...)
  local parameters = PARAMETERS[name] or ""
  if name == "to_fail" and select("#", ...) > 0 and (...) ~= nil then parameters = format((...)) end
  return "expect(" .. (SUBJECTS[name] or "actual") .. ")." .. (negated and "never." or "") .. name .. "(" .. parameters .. ")"
end

local function matcher(actual, name, negated)
  local check = CHECKS[name]
  return function(...)
    local holds, why, whyNot, expected, shown, lines = check(actual, ...)
    if holds == negated then
      fail(callText(name, negated, ...) .. ": " .. (negated and whyNot or why), (negated and "not " or "") .. expected, shown, lines)
    end
  end
end

local function unknownMatcher(key)
  -- not_to_equals: the suggestion keeps the not_ prefix (not_to_equal).
  local negated = type(key) == "string" and sub(key, 1, 7) == "not_to_"
  local close = type(key) == "string" and suggest(negated and sub(key, 5) or key, MATCHERS)
  local suggestion = close and (" (did you mean '" .. (negated and "not_" or "") .. close .. "'?)") or ""
  -- Chained words (expect(v).to.equal(x), luassert's is/are/has): one name joined by _.
  local CHAINED = { to = true, is = true, are = true, has = true, is_not = true, was = true, has_no = true, to_not = true, not_to = true }
  if CHAINED[key] then
    suggestion = " (matchers are one name, not a chain: write expect(v).to_equal(x), expect(v).never.to_be_nil(), "
      .. "expect(s).to_have_been_called())"
  end
  error("expect(...) has no matcher '" .. tostring(key) .. "'" .. suggestion
    .. "; matchers are " .. MATCHER_LIST .. " (each also as not_<name> and after .never)", 3)
end

function expect(...)
  if select("#", ...) == 0 then error("expect() needs the value to check: expect(value).to_be(expected)", 2) end
  local actual = ...
  local never = setmetatable({}, {
    __index = function(_, key)
      if CHECKS[key] then return matcher(actual, key, true) end
      unknownMatcher(key)
    end,
  })
  return setmetatable({}, {
    __index = function(_, key)
      if key == "never" then return never end
      if CHECKS[key] then return matcher(actual, key, false) end
      if type(key) == "string" and sub(key, 1, 7) == "not_to_" and CHECKS[sub(key, 5)] then
        return matcher(actual, sub(key, 5), true)
      end
      unknownMatcher(key)
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

-- app.host(name, stub): the stub is a function or a spy (spy(fn), any callable table), which
-- then records the calls the rules make.
do
  local registerHost = app.host
  app.host = function(name, stub)
    if type(name) ~= "string" then
      error("bad argument #1 to 'app.host' (host name string expected, got " .. type(name) .. ")", 2)
    end
    local mt = type(stub) == "table" and getmetatable(stub)
    if type(mt) == "table" and rawget(mt, "__call") ~= nil then
      local callable = stub
      stub = function(...) return callable(...) end
    end
    if type(stub) ~= "function" then
      error("bad argument #2 to 'app.host' (function or spy expected, got " .. type(stub) .. ")", 2)
    end
    registerHost(name, stub)
  end
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

return { finish = finish }
