import Foundation

// The one seam between a router and its rules: the router builds a `FlowRuleRequest` in script
// values (`ruleRequest`), asks `decide` (`decideNow`) or awaits `decideAsync` (`decideLater`), and
// turns the `FlowRuleDecision` back into its own route type in `verdict(for:link:)`. The
// pipeline's drivers (`run`, `runAsync`) call the two askers; the step `rulesDecided` the rest.

/// The rules installed in a router, with the conversions of the router's route type.
@MainActor @usableFromInline
final class FlowRulesLink<Route: Hashable> {
    /// The rules.
    @usableFromInline let hook: any FlowRulesHook
    /// A route as scripts see it (cached per route value).
    @usableFromInline let encode: (Route) -> FlowRouteValue
    /// The command a rule's redirect names, in the router's route type.
    @usableFromInline let decode: (FlowRuleTarget) throws -> FlowCommand<Route>

    @usableFromInline
    init(hook: any FlowRulesHook, encode: @escaping (Route) -> FlowRouteValue,
         decode: @escaping (FlowRuleTarget) throws -> FlowCommand<Route>) {
        self.hook = hook
        self.encode = encode
        self.decode = decode
    }
}

/// A router's stacks as its rules read them (see ``FlowRuleStacks``): a snapshot, or the view
/// synchronous decisions share, which reads the router's stacks as they are and keeps a copy
/// only once a rule kept it past its decision (`detach()`).
@MainActor @usableFromInline
final class FlowRouterStacks<Route: Hashable>: FlowRuleStacks {
    /// Where the stacks come from.
    private enum Source {
        /// These stacks.
        case snapshot([FlowStackState<Route>])
        /// The router's stacks, read when asked.
        case current(() -> [FlowStackState<Route>])
    }

    private var source: Source
    let encode: (Route) -> FlowRouteValue

    /// A view of `stacks` as they are now.
    init(encode: @escaping (Route) -> FlowRouteValue, stacks: [FlowStackState<Route>]) {
        self.encode = encode
        self.source = .snapshot(stacks)
    }

    /// A view of the stacks `current` returns when asked, until `detach()`. The router shares
    /// one with its synchronous decisions: nothing is written into it per decision (handing it
    /// the stacks and taking them back were two checked class-property writes, about 190
    /// instructions per operation, callgrind, Lua-guarded push + pop).
    @usableFromInline
    init(encode: @escaping (Route) -> FlowRouteValue, current: @escaping () -> [FlowStackState<Route>]) {
        self.encode = encode
        self.source = .current(current)
    }

    /// Keeps the stacks as they are now: a rule kept the view past its decision, and must go on
    /// seeing the stacks it decided on.
    @usableFromInline func detach() {
        if case .current(let read) = source { source = .snapshot(read()) }
    }

    private var stacks: [FlowStackState<Route>] {
        switch source {
        case .snapshot(let stacks): return stacks
        case .current(let read): return read()
        }
    }

    @usableFromInline var count: Int { stacks.count }

    @usableFromInline func info(_ index: Int) -> (id: String, presentation: String)? {
        let stacks = stacks
        guard index >= 1, index <= stacks.count else { return nil }
        return (stacks[index - 1].id.flowString, stacks[index - 1].style.rawValue)
    }

    @usableFromInline func screens(_ index: Int) -> Int? {
        let stacks = stacks
        guard index >= 1, index <= stacks.count else { return nil }
        return stacks[index - 1].pathCount + 1
    }

    @usableFromInline func route(stack index: Int, position: Int) -> FlowRouteValue? {
        let stacks = stacks
        guard index >= 1, index <= stacks.count, let route = stacks[index - 1].route(atDepth: position - 1) else { return nil }
        return encode(route)
    }
}

/// What the rules decided, in the router's route type.
@usableFromInline
enum FlowRulesVerdict<Route: Hashable> {
    /// Run it; `reason` is set when the rules failed and the policy allows (fail open).
    case allow(reason: String?)
    /// Refuse it; with a dialog, answer it with that dialog (`flow.redirect("dialog", ...)`),
    /// and with `resume`, hold the refused navigation until the rules allow it.
    indirect case refuse(FlowOperationStatus, reason: String?, dialog: FlowDialogRedirect? = nil, resume: Bool = false)
    /// Refuse it and run `target` instead; with `resume`, hold the refused navigation until the
    /// rules allow it (see ``FlowPendingNavigation``). `location` is the rule's `file:line`.
    indirect case redirect(FlowCommand<Route>, reason: String, resume: Bool, location: String?)
}

extension FlowRouter {
    /// The rules consulted after the Swift checks, or `nil` (install them with `installRules(_:)`).
    public var rulesHook: (any FlowRulesHook)? { rules?.hook }

    /// Removes the installed rules: the router then behaves exactly like FlowStack.
    public func removeRules() {
        rules = nil
    }

    /// The generation of the rules in force, for the history (0 without rules).
    @inlinable
    var generation: Int { rules?.hook.generation ?? 0 }

    /// The request the rules are asked about `command`, as the router is now.
    @inlinable @inline(__always)
    func ruleRequest(
        _ command: FlowCommand<Route>, link: FlowRulesLink<Route>, stacks: any FlowRuleStacks,
        _ navigation: FlowNavigation, chain: [FlowCommand<Route>]
    ) -> FlowRuleRequest {
        let kind = FlowRuleKind(command)
        var route: FlowRouteValue?
        var routes: [FlowRouteValue]?
        switch kind {
        case .pop, .popToRoot, .dismiss, .dismissAll, .selectTab:
            break
        case .pushMany:
            routes = command.batch?.map(link.encode)
        default:
            // Read once, and only for the kinds that carry routes.
            switch command.operation {
            case .replacePath(let root, let path, _):
                route = link.encode(root)
                routes = ([root] + path).map(link.encode)
            case .setRoot(let screen), .present(let screen, _):
                // The initial path is shown too: its routes' guards run, as for replacePath.
                route = link.encode(screen)
                if !command.path.isEmpty { routes = ([screen] + command.path).map(link.encode) }
            case .push(let screen, _), .pushRemovingPrevious(let screen, _), .replaceCurrent(let screen, _),
                 .popTo(let screen, _, _):
                route = link.encode(screen)
            case .pop, .popToRoot, .dismiss, .dismissAll:
                break
            }
        }
        let shape = command.shape
        var target: Int?
        if let shapeTarget = shape.target, let index = storage.state.index(for: shapeTarget) { target = index + 1 }
        // Read in place (`last` would copy the whole stack).
        let stackCount = storage.state.stacks.count
        let dialog = storage.state.globalDialog
        // Built in one initializer call: with the tabs filled in afterwards, the request was
        // copied and destroyed once more on its way to `decide` (12,313 → 11,633 instructions per
        // operation, callgrind, Lua-guarded push + pop).
        let selected = storage.state.selectedTabIndex
        return FlowRuleRequest.routerRequest(
            kind: kind, route: route, routes: routes, count: kind == .pop ? shape.count : nil, target: target,
            source: navigation.source, isAsync: navigation.isAsync, runsDefaultPreconditions: !navigation.hasCondition,
            dialog: dialog == nil ? nil : FlowRouterState<Route, Dialog>.dialogKey(dialog), queuedDialogCount: storage.state.dialogQueue.count,
            redirectChain: chain.isEmpty ? [] : chain.map { $0.summary }, stackCount: stackCount,
            frontScreenCount: stackCount == 0 ? 0 : storage.state.stacks[stackCount - 1].pathCount + 1, stacks: stacks,
            tab: selected == nil ? nil : command.tab,
            selectedTab: selected.map { storage.state.tabSlots[$0].name },
            tabs: selected == nil ? [] : ruleTabs(link: link))
    }

    /// Every tab as rules see it (`ctx.tabs`); only a tabbed router's requests carry them.
    @usableFromInline
    func ruleTabs(link: FlowRulesLink<Route>) -> [FlowRuleTab] {
        let selected = storage.state.selectedTabIndex
        return storage.state.tabs.enumerated().map { index, tab in
            FlowRuleTab(
                name: tab.name, isSelected: index == selected, stackID: tab.stack.id.flowString,
                routes: ([tab.stack.root] + tab.stack.path).map(link.encode))
        }
    }

    /// The rules' decision on a synchronous request, asked now; a navigation requested while
    /// they decide is refused (`isDeciding`).
    @inlinable @inline(__always)
    func decideNow(
        _ command: FlowCommand<Route>, _ navigation: FlowNavigation, chain: [FlowCommand<Route>], link: FlowRulesLink<Route>
    ) -> FlowRuleDecision {
        // The view is the router's (unchecked storage), reading its stacks: reused while no
        // rule kept it.
        if storage.syncStacks == nil {
            storage.syncStacks = FlowRouterStacks(encode: link.encode, current: { [unowned self] in self.storage.state.stacks })
        }
        let decision: FlowRuleDecision
        do {
            let request = ruleRequest(command, link: link, stacks: storage.syncStacks!, navigation, chain: chain)
            isDeciding = true
            decision = link.hook.decide(request)
            isDeciding = false
        }
        // A rule kept the view: it keeps the stacks it decided on (no navigation runs while a
        // rule decides), and the next decision gets a new one.
        if !isKnownUniquelyReferenced(&storage.syncStacks!) {
            storage.syncStacks!.detach()
            storage.syncStacks = nil
        }
        return decision
    }

    /// The rules' decision on a request of the async queue, awaited (they may suspend, so they
    /// read a snapshot of the stacks); a navigation the deciding task requests is refused
    /// (`decidingTask`).
    func decideLater(
        _ command: FlowCommand<Route>, _ navigation: FlowNavigation, chain: [FlowCommand<Route>], link: FlowRulesLink<Route>
    ) async -> FlowRuleDecision {
        let request = ruleRequest(
            command, link: link, stacks: FlowRouterStacks(encode: link.encode, stacks: storage.state.stacks), navigation,
            chain: chain)
        decidingTask = FlowSerialQueue.currentTask
        let decision = await link.hook.decideAsync(request)
        decidingTask = nil
        return decision
    }

    /// A decision in the router's route type: the one place a rule's redirect becomes a command.
    /// Inlinable so it is specialized with the router: unspecialized, it looks up the metadata of
    /// the verdict and command types on every navigation (about 650 instructions, callgrind).
    @inlinable
    func verdict(for decision: FlowRuleDecision, link: FlowRulesLink<Route>) -> FlowRulesVerdict<Route> {
        switch decision {
        case .allow:
            return .allow(reason: nil)
        case .allowAfterFailure(let reason):
            return .allow(reason: reason)
        case .block(let block):
            return .refuse(block.stage.status, reason: block.reason, dialog: block.dialog, resume: block.resume)
        case .redirect(let target, let block):
            do {
                let command = try link.decode(target)
                let by = target.location.map { " by \($0)" } ?? ""
                return .redirect(
                    command, reason: block.reason ?? "redirected\(by) to \(command.summary)", resume: block.resume,
                    location: target.location)
            } catch {
                let reason = "\(target.location.map { "\($0): " } ?? "")cannot build the app's route from \(target.route?.description ?? target.description): \(error)"
                switch link.hook.decideFailure(reason) {
                case .allowAfterFailure(let reason): return .allow(reason: reason)
                case .allow: return .allow(reason: nil)
                case .block(let block): return .refuse(block.stage.status, reason: block.reason)
                case .redirect: return .refuse(.failed, reason: reason)
                }
            }
        }
    }
}

extension FlowRouter where Route: FlowRouteConvertible {
    /// Installs rules: every operation, sync and async, and every style resolution consults them
    /// after the Swift checks. Replaces any rules installed before.
    @inlinable
    public func installRules(_ hook: any FlowRulesHook) {
        rules = FlowRulesLink(hook: hook, encode: Self.routeEncoder(), decode: { try $0.command(as: Route.self) })
    }

    /// The stacks as they are now, as rules read them (for building a ``FlowRuleRequest`` by hand).
    package var ruleStacks: any FlowRuleStacks {
        FlowRouterStacks(encode: rules?.encode ?? Self.routeEncoder(), stacks: storage.state.stacks)
    }

    /// Converts routes to their script values, caching each (a `FlowRouteValue` is its own).
    @inlinable
    static func routeEncoder() -> (Route) -> FlowRouteValue {
        if Route.self == FlowRouteValue.self { return { unsafeBitCast($0, to: FlowRouteValue.self) } }
        let cache = FlowRouteCache<Route>()
        return { route in cache.value(of: route) }
    }
}

/// The script values of a router's routes, cached per route (at most 4,096 kept).
@usableFromInline
final class FlowRouteCache<Route: FlowRouteConvertible> {
    @usableFromInline var values: [Route: FlowRouteValue] = [:]

    @usableFromInline init() {}

    @inlinable
    func value(of route: Route) -> FlowRouteValue {
        if let cached = values[route] { return cached }
        let value = route.flowRoute
        if values.count >= 4_096 { values.removeAll(keepingCapacity: true) }
        values[route] = value
        return value
    }
}

extension FlowRuleStage {
    /// The outcome a block at this stage records.
    @inlinable
    var status: FlowOperationStatus {
        switch self {
        case .precondition: .blockedByPrecondition
        case .guard: .blockedByGuard
        case .error: .failed
        }
    }
}
