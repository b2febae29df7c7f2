-- The Lua half of the rules engine (FlowRulesPrelude.swift loads it, chunk name "@rules.lua"),
-- run in every rules VM before the rules files: it defines the `flow` table and keeps the
-- registrations; a decision runs in the C `decide` built over them (CLua/src/engine/clua_decide.c).
-- Swift and C helpers, and the operation kinds and sources, arrive in the hidden global
-- `__flow_native`.
local native = __flow_native
__flow_native = nil
local suggest, routeProblem, sourceOf, expandName = native.suggest, native.routeProblem, native.sourceOf, native.expandName
local stackInfo, routeAt, registerLink = native.stackInfo, native.routeAt, native.deeplink
local stackKit, decider, freeze = native.stackKit, native.decider, native.freeze
local experimentRead, experimentProblem = native.experimentRead, native.experimentProblem
local type, error, setmetatable, getmetatable, tostring, rawset, next, pcall, tointeger =
  type, error, setmetatable, getmetatable, tostring, rawset, next, pcall, math.tointeger

local KINDS = native.kinds
local isKind = {}
for i = 1, #KINDS do isKind[KINDS[i]] = true end

local loading = true
local order = 0
local byKind, star, guards = {}, {}, {}
local styles = { screen = {}, stack = {}, modal = {} }
-- The metatable of flow.redirect(...) values: protected, so no rule can forge a redirect or
-- give every later one a finalizer.
local REDIRECT = { __metatable = "flow.redirect" }

-- The rule being run, for errors whose own location is lost (a tail call such as
-- `return flow.redirect(...)` removes the rule's frame; memory errors carry no location): a
-- decision's rule is known to C (`runningRule`, made with decide below); a style rule's is
-- `styleRunning`, which counts while Swift runs the style function (runningRule then says so).
local runningRule
local styleRunning = nil
local function currentRule()
  if runningRule == nil then return nil end
  local rule, styling = runningRule()
  if styling then return styleRunning end
  return rule
end

-- "file:line: " of the first frame at or above `level` (as `error` counts from the caller of
-- locate's caller) that is not in this prelude nor a C function; the running rule otherwise.
local SELF = "@rules.lua:"
local function locate(level)
  for k = level + 3, level + 16 do
    local _, position = pcall(error, "", k)
    if position ~= "" and position:sub(1, #SELF) ~= SELF then return position end
  end
  local running = currentRule()
  return running and (running.where .. ": ") or ""
end

local function fail(message, level) error(locate(level) .. message, 0) end

-- Lua's own "bad argument" error unless `value` is of type `wanted`: argument `position` of
-- `fname`, described as `what`; `level` as fail's, counted from the caller.
local function needType(value, wanted, fname, position, what, level)
  if type(value) ~= wanted then
    fail("bad argument #" .. position .. " to '" .. fname .. "' (" .. what .. " expected, got " .. type(value) .. ")", level + 1)
  end
end

-- The kinds a function takes besides KINDS (as flowstack check lists them): "*" for
-- flow.precondition (every kind), "dialog" for flow.redirect, "showDialog" for flow.op.
local EXTRA_KIND = { ["flow.precondition"] = "*", ["flow.redirect"] = "dialog", ["flow.op"] = "showDialog" }
local function checkKind(kind, fname, level)
  needType(kind, "string", fname, 1, "operation kind", level + 1)
  local extra = EXTRA_KIND[fname]
  if isKind[kind] or kind == extra then return end
  local accepted = { table.unpack(KINDS) }
  if extra then accepted[#accepted + 1] = extra end
  local hint = suggest(kind, accepted)
  fail("unknown operation kind '" .. kind .. "'" .. (hint and (" (did you mean '" .. hint .. "'?)") or "")
    .. "; kinds are " .. table.concat(accepted, ", "):gsub("%*", "\"*\""), level + 1)
end

local function checkRoute(route, fname, position, level)
  local kind = type(route)
  if kind ~= "string" and kind ~= "table" then
    fail("bad argument #" .. position .. " to '" .. fname .. "' (route expected, got " .. kind .. ")", level + 1)
  end
  local problem = routeProblem(route)
  if problem then fail(problem, level + 1) end
end

-- Tabs: the target of selectTab is a tab's name, checked against the manifest's tabs.
local tabProblem = native.tabProblem
local function checkTab(tab, fname, position, level)
  if type(tab) ~= "string" or tab == "" then
    fail("bad argument #" .. position .. " to '" .. fname .. "' (tab name expected, got " .. type(tab) .. ")", level + 1)
  end
  local problem = tabProblem(tab)
  if problem then fail(problem, level + 1) end
end

local function needLoading(fname)
  if not loading then
    fail(fname .. " can only be called while the rules load (at the top level of a rules file)", 3)
  end
end

-- "file:line" where a rule function starts ("?" for a C function); a chunk name Lua cut short
-- (LUA_IDSIZE) is expanded by Swift.
local function whereOf(fn)
  local source, line = sourceOf(fn)
  if line == nil then return source end
  if #source >= 59 then source = expandName(source) end
  return source .. ":" .. line
end

local function entry(fn, fname)
  needType(fn, "function", fname, 2, "function", 3)
  order = order + 1
  return { fn = fn, order = order, where = whereOf(fn) }
end

local function append(list, item) list[#list + 1] = item end

flow = {}

function flow.precondition(kind, fn)
  needLoading("flow.precondition")
  checkKind(kind, "flow.precondition", 2)
  local item = entry(fn, "flow.precondition")
  if kind == "*" then append(star, item) else
    byKind[kind] = byKind[kind] or {}
    append(byKind[kind], item)
  end
end

function flow.guard(name, fn)
  needLoading("flow.guard")
  needType(name, "string", "flow.guard", 1, "route name", 2)
  checkRoute(name, "flow.guard", 1, 2)
  guards[name] = guards[name] or {}
  append(guards[name], entry(fn, "flow.guard"))
end

-- Dialogs in the rules: flow.redirect("dialog", ...), flow.dialog_guard and
-- flow.op("showDialog", ...); the dialog guards run in decideDialog below.
local dialogProblem, select, rawget = native.dialogProblem, select, rawget
local dialogGuards = {}
local POLICIES = { replace = true, replaceKeepingQueue = true, queue = true, ignoreIfVisible = true }
-- The dialog redirects made by flow.redirect (weak keys), to tell them from navigation ones.
local dialogRedirects = setmetatable({}, { __mode = "k" })

local function checkDialog(dialog, fname, position, level)
  local id = dialog
  if type(dialog) == "table" then id = rawget(dialog, "id") end
  if type(id) ~= "string" or id == "" then
    fail("bad argument #" .. position .. " to '" .. fname .. "' (dialog expected: an id string or a table with a string 'id', got "
      .. type(dialog) .. ")", level + 1)
  end
  local problem = dialogProblem(id)
  if problem then fail(problem, level + 1) end
end

local function checkPolicy(policy, fname, position, level)
  if policy == nil or POLICIES[policy] then return end
  if type(policy) ~= "string" then
    local options = fname == "flow.redirect" and " or an options table such as { resume = true, policy = \"queue\" }" or ""
    fail("bad argument #" .. position .. " to '" .. fname .. "' (dialog policy expected: one of replace, replaceKeepingQueue, "
      .. "queue, ignoreIfVisible" .. options .. ", got " .. type(policy) .. ")", level + 1)
  end
  local hint = type(policy) == "string" and suggest(policy, { "replace", "replaceKeepingQueue", "queue", "ignoreIfVisible" })
  fail("bad argument #" .. position .. " to '" .. fname .. "' (unknown dialog policy " .. tostring(policy)
    .. (hint and (", did you mean '" .. hint .. "'?") or "")
    .. "; policies are replace, replaceKeepingQueue, queue, ignoreIfVisible)", level + 1)
end

local function reasonText(reason, fname, level)
  if reason == nil or type(reason) == "string" then return reason end
  local ok, text = pcall(tostring, reason)
  if not ok or type(text) ~= "string" then
    fail("bad argument #3 to '" .. fname .. "' (the reason cannot be turned into text: " .. tostring(text) .. ")", level + 1)
  end
  return text
end

-- A dialog redirect's fourth argument: a policy, or { resume = true, policy = ... } (resume holds
-- the refused navigation while the dialog shows, as a navigation redirect's resume does).
local DIALOG_REDIRECT_OPTIONS = { "resume", "policy" }
local function dialogOptions(options)
  if type(options) ~= "table" then return options, nil end
  for key, value in next, options do
    if key ~= "resume" and key ~= "policy" then
      local hint = type(key) == "string" and suggest(key, DIALOG_REDIRECT_OPTIONS)
      fail("unknown option '" .. tostring(key) .. "' in flow.redirect's options" .. (hint and (" (did you mean '" .. hint .. "'?)") or "")
        .. "; the options are: resume, policy", 4)
    end
    if key == "resume" and type(value) ~= "boolean" then
      fail("flow.redirect's option 'resume' must be a boolean (true holds the refused navigation while the dialog shows), got "
        .. type(value), 4)
    end
  end
  return rawget(options, "policy"), rawget(options, "resume") or nil
end

local function dialogRedirect(dialog, reason, policy)
  checkDialog(dialog, "flow.redirect", 2, 3)
  reason = reasonText(reason, "flow.redirect", 3)
  local resume
  policy, resume = dialogOptions(policy)
  checkPolicy(policy, "flow.redirect", 4, 3)
  local value = setmetatable({ kind = "dialog", route = { dialog = dialog, policy = policy }, reason = reason, resume = resume }, REDIRECT)
  dialogRedirects[value] = true
  return value
end

function flow.dialog_guard(name, fn)
  needLoading("flow.dialog_guard")
  needType(name, "string", "flow.dialog_guard", 1, 'dialog id or "*"', 2)
  if name ~= "*" then checkDialog(name, "flow.dialog_guard", 1, 2) end
  dialogGuards[name] = dialogGuards[name] or {}
  append(dialogGuards[name], entry(fn, "flow.dialog_guard"))
end

-- The options of a navigation redirect: { resume = true } holds the refused navigation until
-- the rules allow it (Swift's FlowPendingNavigation). Nil when there are none.
local REDIRECT_OPTIONS = { "resume" }
local function redirectResume(options)
  if options == nil then return nil end
  if type(options) ~= "table" then
    fail("bad argument #4 to 'flow.redirect' (options table expected, such as { resume = true }, got " .. type(options) .. ")", 3)
  end
  for key, value in next, options do
    if key ~= "resume" then
      local hint = type(key) == "string" and suggest(key, REDIRECT_OPTIONS)
      fail("unknown option '" .. tostring(key) .. "' in flow.redirect's options" .. (hint and (" (did you mean '" .. hint .. "'?)") or "")
        .. "; the options are: resume", 3)
    end
    if type(value) ~= "boolean" then
      fail("flow.redirect's option 'resume' must be a boolean (true holds the refused navigation until the rules allow it), got "
        .. type(value), 3)
    end
  end
  return options.resume or nil
end

function flow.redirect(kind, route, reason, policy)
  if kind == "dialog" then return dialogRedirect(route, reason, policy) end
  local resume = redirectResume(policy)
  checkKind(kind, "flow.redirect", 2)
  if kind == "pushMany" then
    if type(route) ~= "table" then fail("bad argument #2 to 'flow.redirect' (a list of routes expected for pushMany)", 2) end
    for i = 1, #route do checkRoute(route[i], "flow.redirect", 2, 2) end
  elseif kind == "selectTab" then
    checkTab(route, "flow.redirect", 2, 2)
  elseif route ~= nil then
    checkRoute(route, "flow.redirect", 2, 2)
  end
  if reason ~= nil and type(reason) ~= "string" then
    local ok, text = pcall(tostring, reason)
    if not ok or type(text) ~= "string" then
      fail("bad argument #3 to 'flow.redirect' (the reason cannot be turned into text: " .. tostring(text) .. ")", 2)
    end
    reason = text
  end
  return setmetatable({ kind = kind, route = route, reason = reason, resume = resume }, REDIRECT)
end

function flow.op(kind, route, extra)
  if kind == "showDialog" then
    checkDialog(route, "flow.op", 2, 2)
    checkPolicy(extra, "flow.op", 3, 2)
    return { kind = kind, dialog = route, policy = extra }
  end
  checkKind(kind, "flow.op", 2)
  if kind == "pushMany" then
    if type(route) ~= "table" then fail("bad argument #2 to 'flow.op' (a list of routes expected for pushMany)", 2) end
    for i = 1, #route do checkRoute(route[i], "flow.op", 2, 2) end
    return { kind = kind, routes = route }
  end
  if kind == "selectTab" then
    checkTab(route, "flow.op", 2, 2)
    return { kind = kind, tab = route }
  end
  if route ~= nil then checkRoute(route, "flow.op", 2, 2) end
  local op = { kind = kind, route = route }
  if type(extra) == "table" then
    if rawget(extra, "resume") ~= nil then
      fail("flow.op has no 'resume' option: a plan's steps are never held one by one (a link a rule blocks is held whole, "
        .. "as router.pendingLink()); to hold a navigation, return flow.redirect(kind, route, reason, { resume = true }) from a rule", 2)
    end
    for key, value in next, extra do if op[key] == nil then op[key] = value end end
  elseif type(extra) == "number" then
    op.count = extra
  end
  return op
end

local function styleRegistrar(hook)
  return function(fn)
    needLoading("flow.style." .. hook)
    append(styles[hook], entry(fn, "flow.style." .. hook))
  end
end
flow.style = { screen = styleRegistrar("screen"), stack = styleRegistrar("stack"), modal = styleRegistrar("modal") }

function flow.deeplink(pattern, fn)
  needLoading("flow.deeplink")
  needType(pattern, "string", "flow.deeplink", 1, "pattern string", 2)
  needType(fn, "function", "flow.deeplink", 2, "function", 2)
  local problem = registerLink(pattern, fn)
  if problem then fail(problem, 2) end
end

-- What the screens on show become when facts change: flow.on_facts_changed(fn) handlers, in
-- registration order; each is called fn(changed, stacks, ctx) and returns a plan (a list of
-- flow.op(...)) or nothing. Swift runs the plans, joined, as one transaction (source "facts").
local factsHandlers = {}
function flow.on_facts_changed(fn)
  needLoading("flow.on_facts_changed")
  needType(fn, "function", "flow.on_facts_changed", 1, "function", 2)
  append(factsHandlers, entry(fn, "flow.on_facts_changed"))
end

-- Experiments: flow.audience(name, fn) says who an experiment may enrol. `experiments.<name>`
-- reads through readExperiment (the read-only proxy's missing-key handler, installed by Swift):
-- Swift answers from its caches, or asks for the audience's answer first (ask = true), which
-- it keeps until facts change.
local audiences = {}
function flow.audience(name, fn)
  needLoading("flow.audience")
  needType(name, "string", "flow.audience", 1, "experiment name", 2)
  local problem = experimentProblem(name)
  if problem then fail(problem, 2) end
  local item = entry(fn, "flow.audience")
  if audiences[name] then
    fail("flow.audience: experiment '" .. name .. "' already has an audience (at " .. audiences[name].where
      .. "); one function decides who it enrols", 2)
  end
  audiences[name] = item
end

local function readExperiment(_, name)
  if name == nil then
    fail("experiments are read by name (experiments.paywallStyle): pairs(experiments) lists nothing", 2)
  end
  if type(name) ~= "string" then return nil end
  local variant, ask, problem = experimentRead(name)
  if problem then fail(problem, 2) end
  if ask then
    -- Called directly (no pcall): an error in the audience keeps its own file:line.
    local eligible = audiences[name].fn(facts)
    variant = experimentRead(name, eligible ~= nil and eligible ~= false)
  end
  return variant
end

-- factsChanged(changed, stacks, ctx): every handler's steps, in order, and where each step's
-- handler is (for messages). The tables are read-only for the handlers.
local function factsChanged(changed, stacks, ctx)
  freeze(changed, "changed")
  freeze(stacks, "stacks")
  freeze(ctx, "ctx")
  local steps, wheres = {}, {}
  for i = 1, #factsHandlers do
    local handler = factsHandlers[i]
    styleRunning = handler
    local plan = handler.fn(changed, stacks, ctx)
    styleRunning = nil
    if plan ~= nil then
      if type(plan) ~= "table" then
        error(handler.where .. ": a flow.on_facts_changed handler must return a list of flow.op(...) or nothing, got a "
          .. type(plan), 0)
      end
      for k = 1, #plan do
        append(steps, plan[k])
        append(wheres, handler.where)
      end
    end
  end
  return steps, wheres
end

-- Stacks reach rules lazily (clua_stacks.c). Swift passes the number of stacks and the
-- front-most stack's number of screens with every decision; anything else (a stack's id and
-- presentation, a route, another stack's length) is asked from Swift when a rule reads it, so a
-- deep stack costs nothing until a rule looks. The synchronous decisions share one `stacks`
-- proxy whose per-stack views live on from decision to decision.
local function readOnly() fail("stacks are read-only inside rules; navigate with flow.redirect", 2) end
local function ipairsOf(t)
  local i = 0
  return function() i = i + 1; local v = t[i]; if v ~= nil then return i, v end end, t, nil
end
local makeStacks = stackKit({ readOnly = readOnly, pairs = ipairsOf, stackInfo = stackInfo, routeAt = routeAt })
local syncStacks, syncState = makeStacks(0, 0, 0)

-- The default preconditions of each kind (by index in KINDS), "*" ones merged in by order of
-- registration, and the guards of each route name, as decide's rule lists: the functions in
-- order, their entries in `entries` (clua_decide.c). Computed when the rules have loaded.
local mergedByIndex = {}
local guardLists = {}

local function ruleList(entries)
  local list = { entries = entries }
  for i = 1, #entries do list[i] = entries[i].fn end
  return list
end

-- The entries of `a` and `b` (each in registration order) merged in registration order.
local function merged(a, b)
  local list = {}
  local i, j = 1, 1
  while i <= #a or j <= #b do
    if j > #b or (i <= #a and a[i].order < b[j].order) then append(list, a[i]); i = i + 1
    else append(list, b[j]); j = j + 1 end
  end
  return list
end

local SOURCES = native.sources

-- decide(route, routes, dialog) runs the default preconditions of the kind (when asked), the
-- guards of `route`, then the guards of each of `routes` not run yet, and returns 0 (allowed),
-- 1, stage, reason, where (blocked) or 2, stage, reason, where, kind, route, resume (redirected). The
-- other arguments (the kind and source as indexes into KINDS and SOURCES, count, target, the
-- stacks' snapshot, count and front length, ...) are written by Swift into the function's own
-- memory (clua_decision). It is C (clua_decide.c): only the rules' own instructions run under
-- the instruction budget's count hook. Synchronous decisions share one `op`, `ctx` and
-- `stacks`; async ones, which may be suspended, get their own. `op` and `ctx` are read-only
-- proxies over the decision's arguments (clua_op.c), made by decider.
-- The state goes to C by name (clua_decide.c's clua_decide_state; decider checks every name).
local decide
decide, runningRule = decider({
  kinds = KINDS, sources = SOURCES, defaults = mergedByIndex, guards = guardLists, syncStacks = syncStacks,
  makeStacks = makeStacks, redirect = REDIRECT, syncState = syncState,
})

-- A rule's attributes as plain tables (raw iteration: a __pairs or __index of the rule's own
-- never runs where Swift converts them), at most 8 deep.
local function plain(value, depth, rule)
  if type(value) ~= "table" then return value end
  if depth > 8 then error(rule.where .. ": style attributes are nested more than 8 tables deep", 0) end
  local copy = {}
  for key, item in next, value do copy[key] = plain(item, depth + 1, rule) end
  return copy
end

-- One style rule's attributes as a plain table, or nil.
local function styleOf(rule, context)
  local attributes = rule.fn(context)
  if attributes == nil then return nil end
  if type(attributes) ~= "table" then
    error(rule.where .. ": a style rule must return a table of attributes or nil; it returned a " .. type(attributes), 0)
  end
  return plain(attributes, 1, rule)
end

-- A caught error as text, as Lua's own interpreter shows it: strings and numbers as they are,
-- a value with a metatable through a protected tostring, anything else by its type.
local function errorText(err)
  if type(err) == "string" then return err end
  if type(err) == "number" then return tostring(err) end
  if getmetatable(err) ~= nil then
    local ok, text = pcall(tostring, err)
    if ok and type(text) == "string" then return text end
  end
  return "(error object is a " .. type(err) .. " value)"
end

-- Every rule's attributes in order: Swift checks each table and merges them, so a bad value is
-- ignored without dropping what an earlier rule set for that key. Each rule runs on its own: one
-- that fails is left out and the rules after it still apply; the second result lists, for each
-- failure, the rule's registration (`file:line`) and the error. A budget's stop cannot be caught
-- here (it fires again at the next instruction and ends the whole call), so Swift calls again
-- with `retry` true: the rule left running by the stopped call is skipped from then on, with
-- every rule skipped since the first call of this resolution, and the others still apply.
local styleSkipped = {}
local function style(hook, context, retry)
  local list = styles[hook]
  if retry then
    if styleRunning then styleSkipped[styleRunning] = true end
  elseif next(styleSkipped) ~= nil then
    styleSkipped = {}
  end
  styleRunning = nil
  -- Read-only at every depth: no style rule can change what the next one reads.
  freeze(context, "the style context")
  local results, failures = nil, nil
  for i = 1, #list do
    local rule = list[i]
    if styleSkipped[rule] then goto continue end
    styleRunning = rule
    local ok, attributes = pcall(styleOf, rule, context)
    styleRunning = nil
    if not ok then
      failures = failures or {}
      failures[#failures + 1] = rule.where
      failures[#failures + 1] = errorText(attributes)
    elseif attributes ~= nil then
      results = results or {}
      results[#results + 1] = attributes
    end
    ::continue::
  end
  return results, failures
end

-- decideDialog(view, snap, count, front, ctx) runs the dialog guards of view.id and the "*"
-- ones, in registration order, with a read-only view, lazy stacks and ctx; returns 0 (show),
-- 1, reason, where (refuse) or 2, reason, where, dialog, policy (show another instead). Swift
-- calls it under the instruction budget; the running rule is `styleRunning` (Swift notes
-- "style rules running" first), so errors that lost their location name the guard.
local function dialogVerdict(rule, ...)
  local n, first, reason = select("#", ...), ...
  if n == 0 or first == true then return nil end
  if first == false or first == nil then
    local ok, text = pcall(tostring, reason)
    return 1, reason ~= nil and ok and text or nil, rule.where
  end
  if dialogRedirects[first] then
    local target = first.route
    if type(target) ~= "table" then error(rule.where .. ": the dialog redirect was changed after flow.redirect made it", 0) end
    return 2, first.reason, rule.where, target.dialog, target.policy
  end
  if type(first) == "table" and getmetatable(first) == "flow.redirect" then
    error(rule.where .. ": a dialog guard can only redirect to a dialog: return flow.redirect(\"dialog\", other [, reason [, policy]])", 0)
  end
  error(rule.where .. ": a dialog guard must return nothing, true, false or nil (and a reason), or flow.redirect(\"dialog\", ...); it returned a "
    .. type(first), 0)
end

local function decideDialog(view, snap, count, front, ctx)
  local list = merged(dialogGuards[view.id] or {}, dialogGuards["*"] or {})
  if #list == 0 then return 0 end
  freeze(view, "the dialog")
  freeze(ctx, "ctx")
  local stacks = makeStacks(snap, count, front)
  for k = 1, #list do
    local rule = list[k]
    styleRunning = rule
    local verdict, reason, where, dialog, policy = dialogVerdict(rule, rule.fn(view, stacks, ctx))
    -- The deciding rule stays the running one: converting what it returned may still fail.
    if verdict then return verdict, reason, where, dialog, policy end
    styleRunning = nil
  end
  return 0
end

local function audienceNames()
  local names = {}
  for name in next, audiences do append(names, name) end
  return names
end

local function finishLoading()
  loading = false
  for i = 1, #KINDS do mergedByIndex[i] = ruleList(merged(byKind[KINDS[i]] or {}, star)) end
  for name, entries in next, guards do guardLists[name] = ruleList(entries) end
  local kinds, names = {}, {}
  for kind in next, byKind do append(kinds, kind) end
  if #star > 0 then append(kinds, "*") end
  for name in next, guards do append(names, name) end
  local dialogNames = {}
  for name in next, dialogGuards do append(dialogNames, name) end
  return {
    preconditionKinds = kinds, guardNames = names, dialogGuardNames = dialogNames,
    styleCounts = { screen = #styles.screen, stack = #styles.stack, modal = #styles.modal },
    factsHandlerCount = #factsHandlers, audienceNames = audienceNames(),
  }
end

local function runningWhere() local running = currentRule(); return running and running.where end

-- The entry points Swift reads by name (FlowRulesEngine+Loading.swift).
return {
  decide = decide, style = style, finishLoading = finishLoading, runningWhere = runningWhere, decideDialog = decideDialog,
  factsChanged = factsChanged, readExperiment = readExperiment,
}
