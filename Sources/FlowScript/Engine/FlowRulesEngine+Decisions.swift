import FlowStack
import Foundation

/// A request's source as its position in the prelude's `SOURCES` list: code, user, deeplink.
@inlinable
func flowSourceIndex(of source: FlowOperationSource) -> Int {
    switch source {
    case .code: return 1
    case .user: return 2
    case .deeplink: return 3
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
        syncStacks.stacks = request.stacks
        let erased = decideErased(request, snapshot: 0)
        syncStacks.stacks = []
        switch erased {
        case .allow: return .allow
        case .block(let block): return .block(block)
        case .redirect(let kind, let route, let block, let location):
            return redirectDecision(kind: kind, route: route, block: block, location: location, summary: request.command.summary)
        case .failure(let error): return failure(error, summary: request.command.summary)
        }
    }

    /// Decides a navigation of the async queue: rules may call asynchronous host functions.
    public func decideAsync(_ request: FlowRuleRequest<Route>) async -> FlowRuleDecision<Route> {
        guard let set = ruleSet, needsDecision(request.command, runsDefaults: request.runsDefaultPreconditions) else {
            return .allow
        }
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
                arguments: { writer throws(FlowScriptError) in self.pushDecisionArguments(of: request, snapshot: snapshot, set: set, on: writer) },
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

    /// Runs the prelude's `decide` for a synchronous request.
    @usableFromInline
    func decideErased(_ request: FlowRuleRequest<Route>, snapshot: Int) -> FlowErasedDecision {
        guard let set = ruleSet else { return .allow }
        do {
            return try set.vm.call(
                set.decideFunction,
                arguments: { writer throws(FlowScriptError) in self.pushDecisionArguments(of: request, snapshot: snapshot, set: set, on: writer) },
                results: { results throws(FlowScriptError) in try self.readDecision(results) }
            )
        } catch {
            return .failure(set.relocated(error))
        }
    }

    /// Pushes `decide`'s arguments for `request` (its route, its routes, the dialog) and writes the
    /// scalars into the function's argument memory, reading the request in place: every copy of
    /// the command or of the operation costs an outlined copy of the whole enum.
    func pushDecisionArguments(of request: FlowRuleRequest<Route>, snapshot: Int, set: FlowRuleSet, on writer: LuaStackWriter) {
        writer.reserve(3)
        var count: Int?
        var stackTarget: FlowStackTarget?
        switch request.command.operation {
        case .pop(let popped, let target):
            count = popped
            stackTarget = target
            pushRoutes(nil, nil, set: set, on: writer)
        case .popToRoot(let target), .dismiss(let target):
            stackTarget = target
            pushRoutes(nil, nil, set: set, on: writer)
        case .dismissAll:
            pushRoutes(nil, nil, set: set, on: writer)
        case .replacePath(let root, let path, let target):
            stackTarget = target
            pushRoutes(root, [root] + path, set: set, on: writer)
        case .setRoot(let screen), .present(let screen, _):
            // The initial path is shown too: its routes' guards run, as for replacePath.
            let path = request.command.path
            pushRoutes(screen, path.isEmpty ? nil : [screen] + path, set: set, on: writer)
        case .push(let screen, let target), .pushRemovingPrevious(let screen, let target),
             .replaceCurrent(let screen, let target), .popTo(let screen, _, let target):
            stackTarget = target
            if let batch = request.command.batch {
                pushRoutes(nil, batch, set: set, on: writer)
            } else {
                pushRoutes(screen, nil, set: set, on: writer)
            }
        }
        writer.push(request.dialog)
        // The target stack, 1-based (no closures: written in main-actor code and handed to a
        // generic function, each call gets a runtime executor check).
        var target: Int?
        switch stackTarget {
        case .root?: target = 1
        case .active?: target = request.stacks.count
        case .stack(let id)?:
            for index in request.stacks.indices where request.stacks[index].id == id {
                target = index + 1
                break
            }
        case nil: break
        }
        var frontScreens = 0
        if let front = request.stacks.last { frontScreens = front.pathCount + 1 }
        // The scalars go straight to the memory decide reads them from.
        guard let arguments = set.decisionArguments else {
            preconditionFailure("a loaded rule set always has the decide function's argument memory")
        }
        arguments.write(
            kind: FlowRulesEngineKinds.index(of: request.command), count: count, target: target,
            source: flowSourceIndex(of: request.source), isAsync: request.isAsync,
            runsDefaults: request.runsDefaultPreconditions, queued: request.queuedDialogCount, generation: generation,
            snapshot: snapshot, stackCount: request.stacks.count, frontScreens: frontScreens)
    }

    /// Pushes `decide`'s `route` and `routes` arguments (nil when absent).
    func pushRoutes(_ route: Route?, _ routes: [Route]?, set: FlowRuleSet, on writer: LuaStackWriter) {
        if let route {
            let value = routeValue(route)
            if value.payload.isEmpty { set.pushRouteTable(named: value.name, on: writer) } else { Self.push(value, on: writer) }
        } else {
            writer.pushNil()
        }
        if let routes {
            writer.pushTable(arrayCount: routes.count) { table in
                for route in routes { table.appendPushed { Self.push(self.routeValue(route), on: writer) } }
            }
        } else {
            writer.pushNil()
        }
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
    /// The number of stacks.
    var count: Int { get }
    /// A stack's identity, presentation and number of screens (root included), 1-based.
    func info(_ index: Int) -> (id: String, presentation: String, screens: Int)?
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

    var count: Int { stacks.count }

    func info(_ index: Int) -> (id: String, presentation: String, screens: Int)? {
        guard index >= 1, index <= stacks.count else { return nil }
        let stack = stacks[index - 1]
        return (stack.id.flowString, stack.style.rawValue, stack.pathCount + 1)
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
