import FlowStack
import Foundation

/// The scalar part of what a decision needs from a request: trivially copyable, so passing it
/// around costs no retains nor value-witness copies.
@usableFromInline
struct FlowDecisionScalars {
    /// The kind's position in the prelude's `KINDS` (1-based; see `FlowRulesEngineKinds`).
    @usableFromInline var kindIndex: Int
    @usableFromInline var count: Int?
    @usableFromInline var target: Int?
    /// The source's position in the prelude's `SOURCES` (1-based).
    @usableFromInline var sourceIndex: Int
    @usableFromInline var isAsync: Bool
    @usableFromInline var runsDefaults: Bool
    @usableFromInline var queued: Int
    /// The number of stacks, and the front-most stack's number of screens (root included).
    @usableFromInline var stackCount: Int
    @usableFromInline var frontScreens: Int

    @inlinable
    init(kindIndex: Int, count: Int?, target: Int?, sourceIndex: Int, isAsync: Bool, runsDefaults: Bool, queued: Int,
         stackCount: Int, frontScreens: Int) {
        self.kindIndex = kindIndex
        self.count = count
        self.target = target
        self.sourceIndex = sourceIndex
        self.isAsync = isAsync
        self.runsDefaults = runsDefaults
        self.queued = queued
        self.stackCount = stackCount
        self.frontScreens = frontScreens
    }

    /// A source's position in the prelude's `SOURCES` list: code, user, deeplink.
    @inlinable
    static func sourceIndex(of source: FlowOperationSource) -> Int {
        switch source {
        case .code: return 1
        case .user: return 2
        case .deeplink: return 3
        }
    }
}

/// What a decision needs from a request, without the app's route type: the part of the engine
/// that talks to Lua is not generic, so it costs the same whatever the route type.
@usableFromInline
struct FlowDecisionInput {
    @usableFromInline var scalars: FlowDecisionScalars
    @usableFromInline var route: FlowRouteValue?
    @usableFromInline var routes: [FlowRouteValue]?
    @usableFromInline var dialog: String?

    @inlinable
    init(scalars: FlowDecisionScalars, route: FlowRouteValue?, routes: [FlowRouteValue]?, dialog: String?) {
        self.scalars = scalars
        self.route = route
        self.routes = routes
        self.dialog = dialog
    }
}

/// A decision before its redirect target is turned into the app's route type.
@usableFromInline
enum FlowErasedDecision {
    case allow
    case block(FlowRuleBlock)
    case redirect(kind: String, route: LuaValue, block: FlowRuleBlock, location: String?)
    case failure(FlowScriptError)
}

extension FlowRulesEngine: FlowRulesHook {
    /// Decides a synchronous navigation (async host functions are refused inside it).
    public func decide(_ request: FlowRuleRequest<Route>) -> FlowRuleDecision<Route> {
        decideSpecialized(request)
    }

    /// The generation recorded in the history.
    public var rulesGeneration: Int { generation }

    /// Whether a command needs the Lua rules at all.
    @inlinable
    func needsDecision(_ command: FlowCommand<Route>, runsDefaults: Bool) -> Bool {
        guard let set = ruleSet else { return false }
        if runsDefaults, set.defaultsByKind[FlowRulesEngineKinds.index(of: command)] { return true }
        guard !set.guardNames.isEmpty else { return false }
        if let batch = command.batch {
            for route in batch where set.guardNames.contains(routeValue(route).name) { return true }
        } else {
            // The operation's routes, read in place (`FlowOperation.routes` builds an array).
            switch command.operation {
            case .setRoot(let route), .push(let route, _), .pushRemovingPrevious(let route, _),
                 .replaceCurrent(let route, _), .popTo(let route, _, _), .present(let route, _):
                if set.guardNames.contains(routeValue(route).name) { return true }
            case .replacePath(let root, let path, _):
                if set.guardNames.contains(routeValue(root).name) { return true }
                for route in path where set.guardNames.contains(routeValue(route).name) { return true }
            case .pop, .popToRoot, .dismiss, .dismissAll:
                break
            }
        }
        for route in command.path where set.guardNames.contains(routeValue(route).name) { return true }
        return false
    }

    @inlinable
    func decideSpecialized(_ request: FlowRuleRequest<Route>) -> FlowRuleDecision<Route> {
        guard needsDecision(request.command, runsDefaults: request.runsDefaultPreconditions) else { return .allow }
        return decideChecked(request)
    }

    /// Decides a request the rules need to see (`needsDecision` was true).
    @inlinable
    func decideChecked(_ request: FlowRuleRequest<Route>) -> FlowRuleDecision<Route> {
        decideChecked(request.command, request.parts)
    }

    /// Decides a request, given by its parts, the rules need to see (`needsDecision` was true).
    @inlinable
    func decideChecked(_ command: FlowCommand<Route>, _ parts: FlowRuleRequestParts<Route>) -> FlowRuleDecision<Route> {
        // The scalars, the routes and the dialog go separately: a struct holding them all would
        // be copied through its value witnesses on the way.
        let scalars = makeScalars(command, parts)
        let routes = makeRoutes(command)
        syncStacks.stacks = parts.stacks
        let erased = decideErased(scalars, route: routes.route, routes: routes.routes, dialog: parts.dialog, snapshot: 0)
        syncStacks.stacks = []
        switch erased {
        case .allow: return .allow
        case .block(let block): return .block(block)
        case .redirect(let kind, let route, let block, let location):
            return redirectDecision(kind: kind, route: route, block: block, location: location, summary: command.summary)
        case .failure(let error): return failure(error, summary: command.summary)
        }
    }

    /// Decides a navigation of the async queue: rules may call asynchronous host functions.
    public func decideAsync(_ request: FlowRuleRequest<Route>) async -> FlowRuleDecision<Route> {
        guard let set = ruleSet, needsDecision(request.command, runsDefaults: request.runsDefaultPreconditions) else {
            return .allow
        }
        let input = makeInput(request.command, request.parts)
        let snapshot = nextSnapshot
        nextSnapshot += 1
        let box = FlowStacksBox<Route>(engine: self)
        box.stacks = request.stacks
        snapshots[snapshot] = box
        set.beginCall()
        defer {
            snapshots[snapshot] = nil
            set.endCall()
        }
        let erased: FlowErasedDecision
        do {
            erased = try await set.vm.callAsync(
                set.decideFunction,
                arguments: { writer throws(FlowScriptError) in
                    self.pushDecisionArguments(
                        input.scalars, route: input.route, routes: input.routes, dialog: input.dialog, snapshot: snapshot,
                        set: set, on: writer)
                },
                results: { results throws(FlowScriptError) in try self.readDecision(results) }
            )
        } catch {
            erased = .failure(set.relocated(error))
        }
        switch erased {
        case .allow: return .allow
        case .block(let block): return .block(block)
        case .redirect(let kind, let route, let block, let location):
            return redirectDecision(kind: kind, route: route, block: block, location: location, summary: request.command.summary)
        case .failure(let error): return failure(error, summary: request.command.summary)
        }
    }

    /// A request's fields as the prelude's `decide` takes them (for an async decision).
    @inlinable
    func makeInput(_ command: FlowCommand<Route>, _ request: FlowRuleRequestParts<Route>) -> FlowDecisionInput {
        let routes = makeRoutes(command)
        return FlowDecisionInput(
            scalars: makeScalars(command, request), route: routes.route, routes: routes.routes, dialog: request.dialog)
    }

    /// A request's scalar fields as the prelude's `decide` takes them. The kind, target and count
    /// come from the command's shape: in specialized generic code each switch over the operation
    /// copies the whole enum through its value witnesses.
    @inlinable
    func makeScalars(_ command: FlowCommand<Route>, _ request: FlowRuleRequestParts<Route>) -> FlowDecisionScalars {
        let shape = command._shape
        // The target stack, 1-based (no closures: written in main-actor code and handed to a
        // generic function, each call gets a runtime executor check).
        var target: Int?
        switch shape.target {
        case .root?: target = 1
        case .active?: target = request.stacks.count
        case .stack(let id)?:
            for index in request.stacks.indices where request.stacks[index].id == id {
                target = index + 1
                break
            }
        case nil: break
        }
        // Read in place (`last` would copy the whole stack).
        let stackCount = request.stacks.count
        let frontScreens = stackCount == 0 ? 0 : request.stacks[stackCount - 1].pathCount + 1
        return FlowDecisionScalars(
            kindIndex: FlowRulesEngineKinds.index(of: command), count: shape.kind == .pop ? shape.count : nil,
            target: target, sourceIndex: FlowDecisionScalars.sourceIndex(of: request.source), isAsync: request.isAsync,
            runsDefaults: request.runsDefaultPreconditions, queued: request.queuedDialogCount, stackCount: stackCount,
            frontScreens: frontScreens)
    }

    /// A command's route (`op.route`) and routes (`op.routes`) as scripts see them. The operation
    /// is read once, and only for the kinds that carry routes.
    @inlinable
    func makeRoutes(_ command: FlowCommand<Route>) -> (route: FlowRouteValue?, routes: [FlowRouteValue]?) {
        switch command._shape.kind {
        case .pop, .popToRoot, .dismiss, .dismissAll:
            return (nil, nil)
        case .push where command.batch != nil:
            return (nil, command.batch?.map { routeValue($0) })
        default:
            switch command.operation {
            case .replacePath(let root, let path, _):
                return (routeValue(root), ([root] + path).map { routeValue($0) })
            case .setRoot(let screen), .present(let screen, _):
                // The initial path is shown too: its routes' guards run, as for replacePath.
                if command.path.isEmpty { return (routeValue(screen), nil) }
                return (routeValue(screen), ([screen] + command.path).map { routeValue($0) })
            case .push(let screen, _), .pushRemovingPrevious(let screen, _), .replaceCurrent(let screen, _),
                 .popTo(let screen, _, _):
                return (routeValue(screen), nil)
            case .pop, .popToRoot, .dismiss, .dismissAll:
                return (nil, nil)
            }
        }
    }

    /// Runs the prelude's `decide` for a synchronous request.
    @usableFromInline
    func decideErased(
        _ scalars: FlowDecisionScalars, route: FlowRouteValue?, routes: [FlowRouteValue]?, dialog: String?, snapshot: Int
    ) -> FlowErasedDecision {
        guard let set = ruleSet else { return .allow }
        do {
            return try set.vm.callDecision(
                set.decideFunction,
                arguments: { writer in
                    self.pushDecisionArguments(
                        scalars, route: route, routes: routes, dialog: dialog, snapshot: snapshot, set: set, on: writer)
                },
                results: { results throws(FlowScriptError) in try self.readDecision(results) }
            ) ?? .allow
        } catch {
            return .failure(set.relocated(error))
        }
    }

    func pushDecisionArguments(
        _ input: FlowDecisionScalars, route: FlowRouteValue?, routes: [FlowRouteValue]?, dialog: String?, snapshot: Int,
        set: FlowRuleSet, on writer: LuaStackWriter
    ) {
        writer.reserve(3)
        if let route {
            // A route without parameters goes as its name: decide makes `{ name = ... }` only if
            // a rule reads `op.route` (clua_op.h).
            if route.payload.isEmpty { writer.pushReserved(route.name) } else { Self.push(route, on: writer) }
        } else {
            writer.pushNilReserved()
        }
        if let routes {
            writer.pushTable(arrayCount: routes.count) { table in
                for route in routes { table.appendPushed { Self.push(route, on: writer) } }
            }
        } else {
            writer.pushNilReserved()
        }
        if let dialog { writer.pushReserved(dialog) } else { writer.pushNilReserved() }
        // The scalars go straight to the memory decide reads them from.
        guard let arguments = set.decisionArguments else {
            preconditionFailure("a loaded rule set always has the decide function's argument memory")
        }
        arguments.write(
            kind: input.kindIndex, count: input.count, target: input.target, source: input.sourceIndex,
            isAsync: input.isAsync, runsDefaults: input.runsDefaults, queued: input.queued, generation: generation,
            snapshot: snapshot, stackCount: input.stackCount, frontScreens: input.frontScreens)
    }

    /// Pushes a route as its script table.
    static func push(_ value: FlowRouteValue, on writer: LuaStackWriter) {
        writer.pushTable(fieldCount: value.payload.count + 1) { table in
            table.set("name", value.name)
            for (key, field) in value.payload where key != "name" {
                try? table.set(key, field.luaValue)
            }
        }
    }

    /// Pushes an app route as its script table.
    func push(_ route: Route, on writer: LuaStackWriter) {
        Self.push(routeValue(route), on: writer)
    }

    func readDecision(_ results: LuaResults) throws(FlowScriptError) -> FlowErasedDecision {
        let verdict = try results.integer(at: 1)
        if verdict == 0 { return .allow }
        let stage: FlowRuleStage = try results.string(at: 2) == "guard" ? .guard : .precondition
        let location = try results.optionalString(at: 4)
        let reason = try results.optionalString(at: 3)
        if verdict == 1 {
            return .block(FlowRuleBlock(stage: stage, reason: reason ?? "blocked by the \(stage.rawValue) at \(location ?? "an unknown location")"))
        }
        return .redirect(kind: try results.string(at: 5), route: try results.value(at: 6), block: FlowRuleBlock(stage: stage, reason: reason), location: location)
    }

    /// The decision for a redirect: its target as a command of the app's routes.
    @usableFromInline
    func redirectDecision(kind: String, route: LuaValue, block: FlowRuleBlock, location: String?, summary: String) -> FlowRuleDecision<Route> {
        do {
            let target = try command(kind: kind, route: route, count: nil, target: nil, match: nil, context: location)
            var block = block
            if block.reason == nil { block.reason = "redirected by \(location ?? "a rule") to \(target.summary)" }
            return .redirect(target, block)
        } catch {
            return failure(error, summary: summary)
        }
    }

    /// The decision for a rule failure, by the failure policy.
    @usableFromInline
    func failure(_ error: FlowScriptError, summary: String) -> FlowRuleDecision<Route> {
        let reason = error.description
        switch configuration.failurePolicy {
        case .failClosed:
            configuration.logger.error("rule failed, \(summary) blocked: \(reason)")
            return .block(FlowRuleBlock(stage: .error, reason: reason))
        case .failOpen:
            note(FlowScriptDiagnostic(severity: .error, file: error.file, line: error.line, message: "rule failed, \(summary) allowed (fail open): \(error.message)"))
            return .allowAfterFailure(reason)
        }
    }
}

/// The stacks a decision sees, for the lazy `stacks` argument, without the route type.
@MainActor
protocol FlowErasedStacks: AnyObject {
    /// A stack's identity and presentation, 1-based.
    func info(_ index: Int) -> (id: String, presentation: String)?
    /// A stack's number of screens (root included), 1-based.
    func screens(_ index: Int) -> Int?
    /// The route at a 1-based position (1: the root screen) of a 1-based stack.
    func route(stack index: Int, position: Int) -> FlowRouteValue?
}

/// The stacks of one decision.
@MainActor @usableFromInline
final class FlowStacksBox<Route: FlowRouteConvertible>: FlowErasedStacks {
    @exclusivity(unchecked) @usableFromInline var stacks: [FlowStackState<Route>] = []
    unowned(unsafe) let engine: FlowRulesEngine<Route>

    init(engine: FlowRulesEngine<Route>) {
        self.engine = engine
    }

    func info(_ index: Int) -> (id: String, presentation: String)? {
        guard index >= 1, index <= stacks.count else { return nil }
        return (stacks[index - 1].id.flowString, stacks[index - 1].style.rawValue)
    }

    func screens(_ index: Int) -> Int? {
        guard index >= 1, index <= stacks.count else { return nil }
        return stacks[index - 1].pathCount + 1
    }

    func route(stack index: Int, position: Int) -> FlowRouteValue? {
        guard index >= 1, index <= stacks.count, let route = stacks[index - 1].route(atDepth: position - 1) else { return nil }
        return engine.routeValue(route)
    }
}
