import Foundation

/// The global tables and functions of the annotation file: `flow`, `router`, `app`, `expect`
/// and the test functions.
extension LuaTypesGenerator {
    func flowTable() -> [String] {
        [
            "---@alias RuleFunction fun(op: Op, stacks: Stack[], ctx: RuleContext): (boolean|Redirect|nil), string?",
            "",
            "---@class FlowStyle",
            "---@field screen fun(rule: fun(c: StyleContext): StyleAttributes?)",
            "---@field stack fun(rule: fun(c: StyleContext): StyleAttributes?)",
            "---@field modal fun(rule: fun(c: StyleContext): StyleAttributes?)",
            "",
            "---Registers rules (at the top level of a rules file).",
            "flow = {}",
            "",
            "---@type FlowStyle",
            "flow.style = {}",
            "",
            "---A default precondition for one operation kind, or \"*\" for every kind.",
            "---@param kind OpKind|\"*\"",
            "---@param rule RuleFunction",
            "function flow.precondition(kind, rule) end",
            "",
            "---A guard for every operation that targets this route.",
            "---@param name RouteName",
            "---@param rule RuleFunction",
            "function flow.guard(name, rule) end",
            "",
            "---Blocks the operation and performs another one instead.",
            "---@param kind OpKind",
            "---@param route? RouteLike|RouteLike[]",
            "---@param reason? string",
            "---@return Redirect",
            "function flow.redirect(kind, route, reason) end",
            "",
            "---One step of a deep-link plan.",
            "---@param kind OpKind",
            "---@param route? RouteLike|RouteLike[]",
            "---@param extra? table|integer",
            "---@return Op",
            "function flow.op(kind, route, extra) end",
            "",
            "---Maps a URL pattern (`/products/:id`, `/promo/*`) to a plan.",
            "---@param pattern string",
            "---@param handler fun(p: table<string, string>, url: string): Op[]?",
            "function flow.deeplink(pattern, handler) end",
            "",
        ]
    }

    func routerTable() -> [String] {
        var out = ["---Drives the app's router in flow tests.", "router = {}", ""]
        let routeCalls = [
            ("setRoot", "Replaces the root stack (drops every presentation)."),
            ("push", "Pushes a screen on the front-most stack."),
            ("pushRemovingPrevious", "Pushes a screen and removes the one below it."),
            ("replaceCurrent", "Replaces the top screen."),
            ("sheet", "Presents a sheet."),
            ("fullScreenCover", "Presents a full-screen cover."),
        ]
        for (name, doc) in routeCalls {
            out += ["---\(doc)", "---@param route RouteLike", "---@return Result", "function router.\(name)(route) end", ""]
        }
        for (name, doc) in [("pushAsync", "push"), ("sheetAsync", "sheet"), ("fullScreenCoverAsync", "fullScreenCover")] {
            out += [
                "---Like router.\(doc), through the async queue (async host functions allowed).",
                "---@param route RouteLike", "---@return Result", "function router.\(name)(route) end", "",
            ]
        }
        out += [
            "---Pushes several screens, all or none.", "---@param routes RouteLike[]", "---@return Result",
            "function router.pushMany(routes) end", "",
            "---Replaces the front-most stack's root and path.", "---@param root RouteLike", "---@param path? RouteLike[]",
            "---@return Result", "function router.replacePath(root, path) end", "",
            "---@param count? integer", "---@return Result", "function router.pop(count) end", "",
            "---@return Result", "function router.popToRoot() end", "",
            "---@param route RouteLike", "---@param match? \"inclusive\"|\"exclusive\"", "---@return Result",
            "function router.popTo(route, match) end", "",
            "---Dismisses the front-most presented stack, or the one at stackIndex (and those above it).",
            "---@param stackIndex? integer", "---@return Result", "function router.dismiss(stackIndex) end", "",
            "---@return Result", "function router.dismissAll() end", "",
            "---A back swipe: always applies (source \"user\").", "---@return Result", "function router.userPop() end", "",
            "---A swipe-down on the front-most sheet: always applies (source \"user\").", "---@return Result",
            "function router.userDismiss() end", "",
            "---@param dialog Dialog", "---@param policy? DialogPolicy", "---@return boolean",
            "function router.showDialog(dialog, policy) end", "",
            "function router.hideDialog() end", "",
            "function router.clearDialogs() end", "",
            "---@return Dialog?", "function router.dialog() end", "",
            "---@return integer", "function router.queuedDialogCount() end", "",
            "---The top route of the front-most stack.", "---@return Route", "function router.top() end", "",
            "---@return Stack[]", "function router.stacks() end", "",
            "---Navigation entries, oldest first.", "---@return HistoryEntry[]", "function router.history() end", "",
            "---@param stackIndex integer", "---@param screenDepth? integer", "---@return ResolvedStyle?",
            "function router.style(stackIndex, screenDepth) end", "",
            "---Opens a deep link.", "---@param url string", "---@return LinkResult", "function router.open(url) end", "",
            "---The held deep link's URL.", "---@return string?", "function router.pendingLink() end", "",
            "---Retries the held deep link.", "---@return LinkResult?", "function router.resumePendingLink() end", "",
            "---Seconds after which a held link is dropped (default 600).", "---@type number",
            "router.pendingLinkTimeout = 600", "",
        ]
        return out
    }

    func appTable() -> [String] {
        [
            "---@class AppResetOptions",
            "---@field root? RouteLike",
            "---@field facts? FactChanges",
            "",
            "---The app around the router in flow tests.",
            "app = {}",
            "",
            "---A fresh router at `root` (or the manifest's), facts reset to the defaults plus `facts`.",
            "---@param options? AppResetOptions",
            "function app.reset(options) end",
            "",
            "---Merges facts into the current facts.",
            "---@param changes FactChanges",
            "function app.facts(changes) end",
            "",
            "---Stubs a host function for the running test.",
            "---@param name \(Self.union(hostNames, fallback: "string"))|string",
            "---@param stub fun(...): any",
            "function app.host(name, stub) end",
            "",
            "---Lets virtual time pass inside a stub or a test (async navigations only).",
            "---@param seconds number",
            "function app.wait(seconds) end",
            "",
            "---Moves the virtual clock forward (pending deep links expire by it).",
            "---@param seconds number",
            "function app.advance(seconds) end",
            "",
        ]
    }

    func testFunctions() -> [String] {
        [
            "---@class Expectation",
            "---@field to_be fun(expected: any) raw equality",
            "---@field to_equal fun(expected: any) deep equality",
            "---@field to_be_truthy fun()",
            "---@field to_be_falsy fun()",
            "---@field to_be_nil fun()",
            "---@field to_contain fun(item: any) an array element or a substring",
            "---@field to_fail fun(pattern?: string) the function raises an error (matching pattern)",
            "",
            "---@param value any",
            "---@return Expectation",
            "function expect(value) end",
            "",
            "---@param name string",
            "---@param body fun()",
            "function describe(name, body) end",
            "",
            "---@param name string",
            "---@param body fun()",
            "function it(name, body) end",
            "",
            "---@param hook fun()",
            "function before_each(hook) end",
            "",
            "---@param hook fun()",
            "function after_each(hook) end",
        ]
    }
}
