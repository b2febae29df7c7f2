import FlowLua
import FlowStackCore
import Foundation

/// The arguments of a `router` navigation call, read the same way by the call and by its
/// `Async` twin.
struct FlowCallArguments {
    /// The call's name, for messages (`router.popTo`).
    let function: String
    /// The arguments, in order.
    let values: [LuaValue]

    /// The argument at `position` (1-based), `nil` past the end.
    func value(at position: Int) -> LuaValue {
        position >= 1 && position <= values.count ? values[position - 1] : .nil
    }

    /// Whether the argument at `position` is nil or absent.
    func isNil(at position: Int) -> Bool {
        if case .nil = value(at: position) { return true }
        return false
    }

    /// The integer at `position` (a float with an exact integer value is accepted).
    func integer(at position: Int) throws(FlowScriptError) -> Int {
        guard let integer = value(at: position).intValue else { throw typeError(at: position, expected: "integer") }
        return integer
    }

    /// The string at `position`, or `nil` when it is nil or absent.
    func optionalString(at position: Int) throws(FlowScriptError) -> String? {
        switch value(at: position) {
        case .nil: return nil
        case .string(let text): return text
        default: throw typeError(at: position, expected: "string")
        }
    }

    /// The table at `position`.
    func table(at position: Int) throws(FlowScriptError) -> LuaTable {
        guard case .table(let table) = value(at: position) else { throw typeError(at: position, expected: "table") }
        return table
    }

    private func typeError(at position: Int, expected: String) -> FlowScriptError {
        let got = position <= values.count ? value(at: position).typeName : "no value"
        return FlowScriptError(kind: .typeError, message: "bad argument #\(position) to '\(function)' (\(expected) expected, got \(got))")
    }
}

/// A navigation a flow asked for: the command to perform (and how to adjust its result), or a
/// refusal made before the router saw it (not in the history).
struct FlowPlannedNavigation<Route: FlowRouteConvertible> {
    /// The command, or `nil` when refused.
    var command: FlowCommand<Route>?
    /// The refusal's result table, when refused.
    var refusal: LuaValue?
    /// Rewrites the result table once the command ran (`router.pop`'s count and reason).
    var adjust: (@MainActor (FlowOperationResult<Route>, LuaValue) -> LuaValue)?

    /// A command to perform.
    init(_ command: FlowCommand<Route>, adjust: (@MainActor (FlowOperationResult<Route>, LuaValue) -> LuaValue)? = nil) {
        self.command = command
        self.adjust = adjust
    }

    /// A refusal: `{ applied = false, kind, reason }`.
    init(refusal: LuaValue) {
        self.refusal = refusal
    }
}

/// The navigation calls of `router` in flows (spec §5): each returns a result table.
extension FlowTestRunner {
    /// A builder of one navigation: reads the arguments, returns what to do. It throws
    /// `FlowScriptError` only, but its type says plain `throws`: a typed-throws function type
    /// stored as a value (here, in an array) needs the Swift 6.0 runtime (macOS 15, iOS 18),
    /// newer than the package's deployment targets (`Tools/check-apple-runtime.sh`).
    typealias NavigationBuilder = @MainActor (FlowTestRunner, FlowCallArguments) throws -> FlowPlannedNavigation<Route>

    /// Registers the navigation calls, each with its `Async` twin (as the Swift router has
    /// `pushAsync`, `popAsync`, `dismissAllAsync`, ...), and the user gestures.
    func registerRouter(in vm: LuaVM) throws(FlowScriptError) {
        for (name, builder) in Self.navigationBuilders {
            try vm.register("router.\(name)", returning: { [unowned self] arguments in
                let planned = try builder(self, FlowCallArguments(function: "router.\(name)", values: try arguments.values()))
                return [try self.perform(planned)]
            })
            try vm.registerAsync("router.\(name)Async") { [unowned self] arguments in
                let planned = try builder(self, FlowCallArguments(function: "router.\(name)Async", values: arguments))
                return [try await self.performAsync(planned)]
            }
        }
        try registerGestures(in: vm)
    }

    /// Every navigation call, by name.
    static var navigationBuilders: [(name: String, builder: NavigationBuilder)] {
        [
            ("setRoot", { runner, arguments in
                FlowPlannedNavigation(FlowCommand(.setRoot(try runner.route(arguments, position: 1))))
            }),
            ("push", { runner, arguments in
                FlowPlannedNavigation(FlowCommand(.push(try runner.route(arguments, position: 1), target: .active)))
            }),
            ("pushMany", { runner, arguments in
                guard case .table(let list) = arguments.value(at: 1), !list.array.isEmpty, list.fields.isEmpty else {
                    throw FlowScriptError(
                        kind: .typeError,
                        message: "\(arguments.function) needs a non-empty list of routes, as in \(arguments.function){ \"a\", \"b\" }")
                }
                var routes: [Route] = []
                for (offset, item) in list.array.enumerated() {
                    routes.append(try runner.route(item, function: "\(arguments.function) (route #\(offset + 1))", position: 1))
                }
                return FlowPlannedNavigation(FlowCommand.pushMany(routes, target: .active)!)
            }),
            ("pushRemovingPrevious", { runner, arguments in
                FlowPlannedNavigation(FlowCommand(.pushRemovingPrevious(try runner.route(arguments, position: 1), target: .active)))
            }),
            ("replaceCurrent", { runner, arguments in
                FlowPlannedNavigation(FlowCommand(.replaceCurrent(try runner.route(arguments, position: 1), target: .active)))
            }),
            ("replacePath", { runner, arguments in
                let root = try runner.route(arguments, position: 1)
                var path: [Route] = []
                if !arguments.isNil(at: 2) {
                    for item in try arguments.table(at: 2).array {
                        path.append(try runner.route(item, function: arguments.function, position: 2))
                    }
                }
                return FlowPlannedNavigation(FlowCommand(.replacePath(root: root, path: path, target: .active)))
            }),
            ("pop", { runner, arguments in try runner.plannedPop(arguments) }),
            ("popToRoot", { _, _ in FlowPlannedNavigation(FlowCommand(.popToRoot(target: .active))) }),
            ("popTo", { runner, arguments in try runner.plannedPopTo(arguments) }),
            ("sheet", { runner, arguments in
                FlowPlannedNavigation(FlowCommand(.present(try runner.route(arguments, position: 1), style: .sheet)))
            }),
            ("fullScreenCover", { runner, arguments in
                FlowPlannedNavigation(FlowCommand(.present(try runner.route(arguments, position: 1), style: .fullScreenCover)))
            }),
            ("dismiss", { runner, arguments in try runner.plannedDismiss(arguments) }),
            ("dismissAll", { _, _ in FlowPlannedNavigation(FlowCommand(.dismissAll)) }),
            // Tabs: the router checks the name (did you mean) and refuses it without tabs.
            ("selectTab", { runner, arguments in
                guard case .string(let name) = arguments.value(at: 1), !name.isEmpty else {
                    throw FlowScriptError(
                        kind: .typeError,
                        message: "bad argument #1 to '\(arguments.function)' (tab name expected, got \(arguments.value(at: 1).typeName))")
                }
                return FlowPlannedNavigation(FlowCommand<Route>.selectTab(name))
            }),
        ]
    }

    /// The route argument at `position` of a navigation call.
    private func route(_ arguments: FlowCallArguments, position: Int) throws(FlowScriptError) -> Route {
        try route(arguments.value(at: position), function: arguments.function, position: position)
    }

    /// Performs a planned navigation now.
    private func perform(_ planned: FlowPlannedNavigation<Route>) throws(FlowScriptError) -> LuaValue {
        guard let command = planned.command else { return planned.refusal ?? .nil }
        let result = try currentRouter().perform(command, source: .code)
        let value = resultValue(result)
        return planned.adjust?(result, value) ?? value
    }

    /// Performs a planned navigation through the router's async queue (the flow is suspended
    /// until it is done; rules may call asynchronous host functions).
    private func performAsync(_ planned: FlowPlannedNavigation<Route>) async throws(FlowScriptError) -> LuaValue {
        guard let command = planned.command else { return planned.refusal ?? .nil }
        let router = try currentRouter()
        let before = router.history.last?.sequence ?? 0
        let result = await router.performAsync(command, source: .code)
        for entry in router.history.reversed() {
            guard entry.sequence > before else { break }
            asyncSequences.insert(entry.sequence)
        }
        let value = resultValue(result)
        return planned.adjust?(result, value) ?? value
    }

    /// `router.pop([count])`: when fewer screens than asked were popped, the applied result
    /// says how many (`count`) and why (`reason`).
    private func plannedPop(_ arguments: FlowCallArguments) throws(FlowScriptError) -> FlowPlannedNavigation<Route> {
        let count = arguments.isNil(at: 1) ? 1 : try arguments.integer(at: 1)
        guard count >= 1 else {
            throw FlowScriptError(
                kind: .typeError, message: "bad argument #1 to '\(arguments.function)' (a count of at least 1 expected, got \(count))")
        }
        let front = try currentRouter().stacks.last
        return FlowPlannedNavigation(FlowCommand(.pop(count: count, target: .active))) { result, value in
            guard result.isApplied, let front, case .table(var table) = value else { return value }
            let popped = min(count, front.pathCount)
            guard popped < count else { return value }
            table["count"] = .integer(popped)
            let screens = front.pathCount == 1 ? "1 screen" : "\(front.pathCount) screens"
            table["reason"] = .string(front.style == .root
                ? "popped \(popped) of \(count): the stack held only \(screens) above its root"
                : "popped \(popped) of \(count) and dismissed the \(front.style.rawValue): it held only \(screens) above its root")
            return .table(table)
        }
    }

    /// `router.popTo(route [, "inclusive"])`: the route of the front-most stack's root (not also
    /// in its path) pops to that root, as `popToRoot` (recorded so).
    private func plannedPopTo(_ arguments: FlowCallArguments) throws(FlowScriptError) -> FlowPlannedNavigation<Route> {
        let route = try self.route(arguments, position: 1)
        let match: FlowPopMatch
        switch try arguments.optionalString(at: 2) {
        case nil, "exclusive": match = .exclusive
        case "inclusive": match = .inclusive
        case let other?:
            throw FlowScriptError(
                kind: .typeError,
                message: "bad argument #2 to '\(arguments.function)' (\"inclusive\" or \"exclusive\" expected, got \"\(other)\")")
        }
        if let front = try currentRouter().stacks.last, front.root == route, !front.path.contains(route) {
            guard match == .exclusive else {
                return FlowPlannedNavigation(refusal: Self.refusal(
                    "popTo", "\(route.flowRoute) is the stack's root screen, which cannot be popped: "
                        + "router.popTo(root) pops to it, router.dismiss() closes a presented stack"))
            }
            return FlowPlannedNavigation(FlowCommand(.popToRoot(target: .active)))
        }
        return FlowPlannedNavigation(FlowCommand(.popTo(route, match: match, target: .active)))
    }

    /// `router.dismiss([index])`: the front-most stack, or the stack at `index` (1 is the root
    /// stack); no such stack is a refusal, not an error.
    private func plannedDismiss(_ arguments: FlowCallArguments) throws(FlowScriptError) -> FlowPlannedNavigation<Route> {
        guard !arguments.isNil(at: 1) else { return FlowPlannedNavigation(FlowCommand(.dismiss(target: .active))) }
        let index = try arguments.integer(at: 1)
        let stacks = try currentRouter().stacks
        guard index >= 1, index <= stacks.count else {
            let there = stacks.count == 1 ? "there is 1 stack" : "there are \(stacks.count) stacks"
            return FlowPlannedNavigation(refusal: Self.refusal("dismiss", "no stack at index \(index): \(there) (router.stacks() lists them)"))
        }
        return FlowPlannedNavigation(FlowCommand(.dismiss(target: .stack(stacks[index - 1].id))))
    }

    /// `router.userPop()` and `router.userDismiss()`: the gestures the app's UI reports, refused
    /// (with a reason, nothing recorded) where the screen does not offer them.
    private func registerGestures(in vm: LuaVM) throws(FlowScriptError) {
        typealias Router = FlowRouter<Route, FlowDialogValue>
        typealias Gesture = (
            name: String, kind: String, refusal: (Router) -> String?, perform: (Router) -> FlowOperationResult<Route>?,
            nothing: String
        )
        let gestures: [Gesture] = [
            ("router.userPop", "pop", Self.popGestureRefusal, { $0.userDidPop() },
             "nothing to pop: the front-most stack shows its root screen"),
            ("router.userDismiss", "dismiss", Self.dismissGestureRefusal, { $0.userDidDismiss() },
             "nothing to dismiss: no stack is presented"),
        ]
        for gesture in gestures {
            try vm.register(gesture.name, returning: { [unowned self] _ in
                let router = try self.currentRouter()
                if let refusal = gesture.refusal(router) { return [Self.refusal(gesture.kind, refusal)] }
                guard let result = gesture.perform(router) else { return [Self.refusal(gesture.kind, gesture.nothing)] }
                return [self.resultValue(result)]
            })
        }
    }

    /// Why the person cannot swipe back on the front-most stack's top screen now, or `nil`:
    /// its resolved screen style hides the back button (`navigationBarBackButtonHidden`).
    static func popGestureRefusal(_ router: FlowRouter<Route, FlowDialogValue>) -> String? {
        let stacks = router.stacks
        guard let front = stacks.last, front.pathCount > 0,
              router.resolvedStyle(stackIndex: stacks.count - 1, screenDepth: front.pathCount)?.screen.navigationBarBackButtonHidden == true
        else { return nil }
        return "the screen \(front.topRoute.flowRoute) hides its back button (navigationBarBackButtonHidden in its resolved "
            + "style), so the person cannot swipe back: go back with router.pop() (a button of the screen)"
    }

    /// Why the person cannot swipe down the front-most stack now, or `nil`: a full-screen cover
    /// has no swipe-down, and a presentation whose resolved style sets
    /// `interactiveDismissDisabled` refuses it.
    static func dismissGestureRefusal(_ router: FlowRouter<Route, FlowDialogValue>) -> String? {
        let stacks = router.stacks
        guard stacks.count > 1, let front = stacks.last else { return nil }
        if front.style == .fullScreenCover {
            return "a full-screen cover has no swipe-down: close it with router.dismiss() (a button in the cover)"
        }
        guard router.resolvedStyle(stackIndex: stacks.count - 1, screenDepth: front.pathCount)?.modal?.interactiveDismissDisabled == true
        else { return nil }
        return "the \(front.style.rawValue) of \(front.root.flowRoute) cannot be swiped down (interactiveDismissDisabled in its "
            + "resolved modal style): close it with router.dismiss() (a button in the \(front.style.rawValue))"
    }

    /// A result for a call refused before it reached the router (not in the history).
    static func refusal(_ kind: String, _ reason: String) -> LuaValue {
        .table(["applied": false, "kind": .string(kind), "reason": .string(reason)])
    }
}
