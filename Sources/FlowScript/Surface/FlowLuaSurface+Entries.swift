import FlowStackCore

/// The one description of the Lua surface FlowStack gives scripts: every function of `flow`,
/// `router`, `app`, the matchers of `expect`, the globals of each kind of script, the
/// manifest's keys, the style attributes, the operation kinds and the dialog policies.
///
/// `flowstack types` (LuaLS annotations), `flowstack types --luacheck`, `flowstack check` and
/// the flow runner's lists (``FlowTestAPI``) are made from it; tests compare it with what the
/// preludes expose at runtime and with the contract. Adding a name is adding one line here.
package enum FlowLuaSurface {
    /// Every function, by table; types are LuaLS's, aliases those `flowstack types` writes.
    package static let functions: [FlowLuaFunction] = [
        // flow.* (rules)
        .init(.flow, "precondition(kind: OpKind|\"*\", rule: RuleFunction)", "A default precondition for one operation kind, or \"*\" for every kind."),
        .init(.flow, "guard(name: RouteName, rule: RuleFunction)", "A guard for every operation that targets this route."),
        .init(.flow, "dialog_guard(dialogId: DialogId|\"*\", rule: DialogRuleFunction)", "Runs when a dialog is about to be shown (\"*\" for every dialog); hiding and clearing are never refused."),
        .init(.flow, "redirect(kind: OpKind|\"dialog\", route?: RouteLike|RouteLike[]|Dialog, reason?: string, policy?: DialogPolicy|RedirectOptions # the policy with \"dialog\" or the options of a navigation redirect)", returns: "Redirect", "Blocks the operation and performs another one instead (\"dialog\": shows a dialog by policy; { resume = true }: holds the refused navigation until the rules allow it, for a dialog too: { resume = true, policy = ... })."),
        .init(.flow, "op(kind: OpKind|\"showDialog\", route?: RouteLike|RouteLike[]|Dialog, extra?: table|integer|DialogPolicy)", returns: "Op", "One step of a deep link's or a facts rule's plan (\"showDialog\": shown after the navigation steps, only if the whole plan applies)."),
        .init(.flow, "deeplink(pattern: string, handler: fun(p: table<string, string>, url: string): Op[]?)", "Maps a URL pattern (`/products/:id`, `/promo/*`) to a plan."),
        .init(.flow, "on_facts_changed(handler: fun(changed: table<string, boolean>, stacks: table[], ctx: table): Op[]?)", "What the screens on show become when facts change: a plan run as one transaction (source \"facts\"), its showDialog steps shown after it."),
        .init(.flow, "audience(experiment: ExperimentName, eligible: fun(facts: Facts): boolean?)", "Who an experiment may enrol: a unit whose facts make it return false or nil is not enrolled (and never exposed)."),
        .init(.flow, "style", returns: "FlowStyle", "The style hooks: flow.style.screen, flow.style.stack, flow.style.modal."),
        // flow.style.* (rules)
        .init(.flowStyle, "screen(rule: fun(c: StyleContext): StyleAttributes?)", "Attributes of one screen."),
        .init(.flowStyle, "stack(rule: fun(c: StyleContext): StyleAttributes?)", "Attributes of a whole stack."),
        .init(.flowStyle, "modal(rule: fun(c: StyleContext): StyleAttributes?)", "Attributes of a presentation (sheet or full-screen cover)."),
        // router.* (flows): navigations, each with its Async twin
        .init(.router, "setRoot(route: RouteLike)", returns: "Result", "Replaces the root stack (drops every presentation).", async: true),
        .init(.router, "push(route: RouteLike)", returns: "Result", "Pushes a screen on the front-most stack.", async: true),
        .init(.router, "pushMany(routes: RouteLike[])", returns: "Result", "Pushes several screens, all or none.", async: true),
        .init(.router, "pushRemovingPrevious(route: RouteLike)", returns: "Result", "Pushes a screen and removes the one below it.", async: true),
        .init(.router, "replaceCurrent(route: RouteLike)", returns: "Result", "Replaces the top screen.", async: true),
        .init(.router, "replacePath(root: RouteLike, path?: RouteLike[])", returns: "Result", "Replaces the front-most stack's root and path.", async: true),
        .init(.router, "pop(count?: integer)", returns: "Result", "Pops count screens (default 1) of the front-most stack.", async: true),
        .init(.router, "popToRoot()", returns: "Result", "Pops to the front-most stack's root screen.", async: true),
        .init(.router, "popTo(route: RouteLike, match?: \"inclusive\"|\"exclusive\")", returns: "Result", "Pops to the last occurrence of route (its root: as popToRoot).", async: true),
        .init(.router, "sheet(route: RouteLike)", returns: "Result", "Presents a sheet.", async: true),
        .init(.router, "fullScreenCover(route: RouteLike)", returns: "Result", "Presents a full-screen cover.", async: true),
        .init(.router, "dismiss(stackIndex?: integer)", returns: "Result", "Dismisses the front-most presented stack, or the one at stackIndex (and those above it).", async: true),
        .init(.router, "dismissAll()", returns: "Result", "Dismisses every presented stack.", async: true),
        .init(.router, "selectTab(tab: TabName)", returns: "Result", "Selects a tab (its stack comes on screen, the others keep theirs); the selected tab again pops it to its root.", async: true),
        // router.* (flows): gestures, dialogs, queries, links
        .init(.router, "userPop()", returns: "Result", "A back swipe (source \"user\"): refused, nothing recorded, where the screen hides its back button."),
        .init(.router, "userDismiss()", returns: "Result", "A swipe-down on the front-most sheet (source \"user\"): refused on a cover or where interactiveDismissDisabled is set."),
        .init(.router, "showDialog(dialog: Dialog, policy?: DialogPolicy)", returns: "boolean", "Shows a dialog by policy (default \"replace\"), through the dialog rules: false when refused or not shown."),
        .init(.router, "showDialogAsync(dialog: Dialog, policy?: DialogPolicy)", returns: "boolean", "Like router.showDialog, as one turn of the async queue."),
        .init(.router, "hideDialog()", "Hides the dialog shown (the next queued one shows)."),
        .init(.router, "clearDialogs()", "Hides the dialog shown and empties the queue."),
        .init(.router, "dialog()", returns: "Dialog?", "The dialog shown, or nil."),
        .init(.router, "queuedDialogCount()", returns: "integer", "How many dialogs wait in the queue."),
        .init(.router, "top()", returns: "Route", "The top route of the front-most stack."),
        .init(.router, "stacks()", returns: "Stack[]", "The stacks, the root stack first."),
        .init(.router, "tab()", returns: "TabName?", "The selected tab's name (nil without tabs)."),
        .init(.router, "tabs()", returns: "{ name: TabName, selected: boolean, stack: Stack }[]", "Every tab in the order of the tab bar, each with its root stack."),
        .init(.router, "history()", returns: "HistoryEntry[]", "Navigation and dialog entries, oldest first."),
        .init(.router, "style(stackIndex: integer, screenDepth?: integer)", returns: "ResolvedStyle?", "The resolved style of a screen, its stack and its presentation."),
        .init(.router, "open(url: string)", returns: "LinkResult", "Opens a deep link."),
        .init(.router, "pendingLink()", returns: "string?", "The held deep link's URL, or nil."),
        .init(.router, "resumePendingLink()", returns: "LinkResult?", "Retries the held deep link."),
        .init(.router, "pendingLinkTimeout", returns: "number", "Seconds after which a held link is dropped (default 600); assignable."),
        // router.* (flows): held navigations (flow.redirect(..., { resume = true }))
        .init(.router, "pendingNavigation()", returns: "PendingNavigation?", "The navigation held by a resuming redirect, or nil."),
        .init(.router, "resumePendingNavigation()", returns: "boolean, string?", "Runs the held navigation now if the rules allow it (its gate, the redirect's presentation or dialog, is dismissed first): whether it ran, and why not."),
        .init(.router, "resumePendingNavigationAsync()", returns: "boolean, string?", "Like router.resumePendingNavigation, as one turn of the async queue: the rules may call async hosts."),
        .init(.router, "cancelPendingNavigation()", returns: "boolean", "Drops the held navigation; whether one was held."),
        // app.* (flows)
        .init(.app, "reset(options?: AppResetOptions)", "A fresh router at `root` (or the manifest's), facts reset to the defaults plus `facts`, experiments as `experiments` forces them (for unit `unit`, default none)."),
        .init(.app, "facts(changes: FactChanges)", "Merges facts into the current facts; the facts rules run, the held link and navigation are retried (an async-held one in its queue turn, awaited)."),
        .init(.app, "experiments(choices: ExperimentChoices)", "Forces experiments' variants (\"none\": not enrolled) for the running test; the audience still decides who is eligible."),
        .init(.app, "exposures()", returns: "Exposure[]", "The exposures reported in the running test so far, oldest first: { experiment, variant, unit, route, kind }."),
        .init(.app, "host(name: HostName|string, stub: (fun(...): any)|Spy)", "Stubs a host function for the running test (a spy records the rules' calls)."),
        .init(.app, "wait(seconds: number)", "Lets virtual time pass inside a stub or a test (async navigations only)."),
        .init(.app, "advance(seconds: number)", "Moves the virtual clock forward (pending deep links expire by it)."),
        .init(.app, "calls(name: HostName|string)", returns: "any[][]", "The calls of a host function in the running test, oldest first: { { arg1, arg2 }, ... }."),
        .init(.app, "scriptErrors()", returns: "string[]", "The script errors the rules raised in this test so far (\"file:line: message\"), taken."),
        .init(.app, "reload(files?: table<string, string>)", returns: "integer?, string?", "Reloads the rules (files replace or add files for this test): the new generation, or nil and the error."),
        .init(.app, "generation()", returns: "integer", "The generation of the rules in force."),
        // expect(value).<matcher> (flows); each also as not_<name> and after .never
        .init(.expectation, "to_be(expected: any)", "Raw equality."),
        .init(.expectation, "to_equal(expected: any)", "Deep equality."),
        .init(.expectation, "to_be_truthy()", "Anything but nil and false."),
        .init(.expectation, "to_be_falsy()", "nil or false."),
        .init(.expectation, "to_be_nil()", "nil."),
        .init(.expectation, "to_contain(item: any)", "An array element or a substring."),
        .init(.expectation, "to_fail(pattern?: string)", "The function raises an error (matching pattern, if given)."),
        .init(.expectation, "to_match(pattern: string)", "A string matching a Lua pattern."),
        .init(.expectation, "to_have_length(n: integer)", "The length of a string, a table, or a spy's calls."),
        .init(.expectation, "to_be_a(typeName: string)", "type(value), or \"integer\"/\"float\"."),
        .init(.expectation, "to_be_greater_than(x: number|string)", "Greater than x."),
        .init(.expectation, "to_be_less_than(x: number|string)", "Less than x."),
        .init(.expectation, "to_be_at_least(x: number|string)", "At least x."),
        .init(.expectation, "to_be_at_most(x: number|string)", "At most x."),
        .init(.expectation, "to_have_been_called()", "A spy or app.calls(name) has a call."),
        .init(.expectation, "to_have_been_called_times(n: integer)", "Exactly n calls."),
        .init(.expectation, "to_have_been_called_with(...: any)", "One call had exactly these arguments."),
        .init(.expectation, "to_match_steps(steps: string[])", "The history, as \"push editor blocked: reason\" lines."),
        // Global functions of flow files
        .init(.flowGlobal, "describe(name: string, body: fun())", "A group of tests (and hooks)."),
        .init(.flowGlobal, "it(name: string, body?: fun())", "A test (without a body: pending)."),
        .init(.flowGlobal, "pending(name: string, body?: fun())", "A test that is listed and reported, not run."),
        .init(.flowGlobal, "before_each(hook: fun())", "Runs before each test of the enclosing describe (or file)."),
        .init(.flowGlobal, "after_each(hook: fun())", "Runs after each test of the enclosing describe (or file)."),
        .init(.flowGlobal, "before_all(hook: fun())", "Runs once before the first test of the enclosing describe (or file); its app.reset and app.facts set where each of them starts."),
        .init(.flowGlobal, "after_all(hook: fun())", "Runs once after the last test of the enclosing describe (or file)."),
        .init(.flowGlobal, "setup(hook: fun())", "busted's name for before_all."),
        .init(.flowGlobal, "teardown(hook: fun())", "busted's name for after_all."),
        .init(.flowGlobal, "expect(value: any)", returns: "Expectation", "An expectation on value: expect(value).to_equal(expected)."),
        .init(.flowGlobal, "spy(fn?: function)", returns: "Spy", "A callable that records its calls (and calls fn, if given)."),
        // Global functions of explore files
        .init(.exploreGlobal, "invariant(name: string, check: fun(s: ExploreState): boolean)", "A property every explored state must have: check returns true when the state is fine."),
    ]

    /// The globals each kind of script has besides Lua's standard ones.
    package static let globals: [FlowLuaGlobal] = [
        .init("flow", [.rules], "Registers rules (at the top level of a rules file) and makes redirects and plan steps."),
        .init("facts", [.rules, .flows], "The app's facts (read-only; flows set them with app.facts)."),
        .init("host", [.rules], "The host functions the app registers."),
        .init("experiments", [.rules], "The variant of each declared experiment for the app's unit, or nil when not enrolled (read-only)."),
        .init("router", [.flows], "Drives the app's router in flow tests."),
        .init("app", [.flows], "The app around the router in flow tests."),
    ] + functions(of: .flowGlobal).map { FlowLuaGlobal($0.name, [.flows], $0.doc) }
        + functions(of: .exploreGlobal).map { FlowLuaGlobal($0.name, [.explore], $0.doc) }

    /// Lua's standard globals the sandbox keeps, in every kind of script (the contract's
    /// sandbox section says what each lost: no `io`, no `require`, `os` reduced, ...).
    package static let luaStandardGlobals = [
        "assert", "error", "getmetatable", "ipairs", "next", "pairs", "pcall", "rawequal", "rawget", "rawlen", "rawset",
        "select", "tonumber", "tostring", "type", "warn", "_VERSION", "print", "setmetatable", "xpcall", "collectgarbage",
        "load", "string", "table", "math", "utf8", "coroutine", "os", "_G",
    ]

    /// The fields of the state an invariant of `explore/*.lua` gets.
    package static let exploreState: [FlowLuaField] = [
        .init("stacks", "Stack[]", "The stacks, as router.stacks()."),
        .init("top", "Route", "The top route of the front-most stack."),
        .init("dialog", "Dialog?", "The dialog shown, or nil."),
        .init("facts", "Facts", "The facts of this exploration branch."),
    ]

    /// The keys of the manifest (`routes.lua` returns a table of them).
    package static let manifestKeys: [FlowLuaField] = [
        .init("root", "RouteLike", "The screen the app starts on, and the root of every fresh flow test."),
        .init(
            "routes", "table<string, { params?: table<string, PayloadType>, opens?: string[] }>",
            "Every route, with its payload fields' types and the operations that open it (push, pushMany, sheet, fullScreenCover, setRoot, replaceCurrent; explore and diff try only those)."),
        .init("dialogs", "string[]", "Every dialog id."),
        .init("facts", "table<string, any>", "Every fact, with its default value (boolean, number, string or table)."),
        .init("links", "{ schemes?: string[], hosts?: string[] }", "Which deep links the app accepts."),
        .init("tabs", "{ name: string, root: RouteLike }[]", "The tab bar: each tab's name and root route, the first selected at start (then `root` is not needed)."),
        .init(
            "experiments", "table<string, { variants: table<string, integer>, salt: string }>",
            "Every experiment: its variants with their weights in percent (adding up to at most 100; the rest is not enrolled) and the salt its assignment hashes."),
        .init("explore", "ManifestExplore", "What `flowstack explore` tries: fact values, parameter samples, host answers, URLs."),
    ]

    /// The keys of the manifest's `explore` section.
    package static let exploreKeys: [FlowLuaField] = [
        .init("facts", "table<string, any[]>", "The values to try for each fact that is not a boolean (default: its default)."),
        .init("hostAnswers", "table<string, any[]>", "The outcomes to answer each host function with."),
        .init("urls", "string[]", "The links to open with router.open."),
        .init("params", "table<string, any[]>", "Sample values of route parameters, by parameter name (default: one per type)."),
    ]

    /// The types a route's payload field may declare.
    package static let payloadTypes: [FlowLuaName] = [
        .init("string", "A Lua string."),
        .init("number", "Any Lua number."),
        .init("integer", "A number with an integer value."),
        .init("boolean", "true or false."),
        .init("table", "A table (of strings, numbers, booleans and tables)."),
    ]

    /// The attributes a style rule may return.
    package static let styleAttributes: [FlowLuaField] = [
        .init("navigationBarHidden", "boolean", "Hides the navigation bar."),
        .init("multilineTextAlignment", "\"leading\"|\"center\"|\"trailing\"", "The alignment of multi-line text."),
        .init("tint", "Color", "The tint colour."),
        .init("background", "Color", "The background colour."),
        .init("preferredColorScheme", "\"light\"|\"dark\"", "The colour scheme."),
        .init("presentationDragIndicator", "\"automatic\"|\"visible\"|\"hidden\"", "A sheet's drag indicator."),
        .init("presentationDetents", "Detent[]", "A sheet's heights."),
        .init("interactiveDismissDisabled", "boolean", "Refuses the swipe-down of a sheet."),
        .init("navigationBarBackButtonHidden", "boolean", "Hides the back button (and refuses the back swipe)."),
        .init("navigationTitle", "string", "The navigation title."),
    ]

    /// The operation kinds (`flow.precondition`, `flow.redirect`, `flow.op`, the history).
    package static let kinds: [FlowLuaName] = [
        .init("setRoot", "Replaces the root stack."),
        .init("push", "Pushes one screen."),
        .init("pushMany", "Pushes several screens, all or none."),
        .init("pushRemovingPrevious", "Pushes a screen and removes the one below it."),
        .init("replaceCurrent", "Replaces the top screen."),
        .init("replacePath", "Replaces a stack's root and path."),
        .init("pop", "Pops screens."),
        .init("popToRoot", "Pops to a stack's root."),
        .init("popTo", "Pops to a route."),
        .init("sheet", "Presents a sheet."),
        .init("fullScreenCover", "Presents a full-screen cover."),
        .init("dismiss", "Dismisses a presented stack."),
        .init("dismissAll", "Dismisses every presented stack."),
        .init("selectTab", "Selects a tab (the selected one again: pops it to its root)."),
    ]

    /// The dialog policies (`router.showDialog`, `flow.redirect("dialog", ...)`, `flow.op("showDialog", ...)`).
    package static let policies: [FlowLuaName] = [
        .init("replace", "Show now and clear the queue (the default)."),
        .init("replaceKeepingQueue", "Show now and keep the queue for later."),
        .init("queue", "Show now when nothing is visible, otherwise append to the queue."),
        .init("ignoreIfVisible", "Show only when nothing is visible; otherwise drop it."),
    ]
}
