import FlowStackCore
import Foundation

extension FlowRulesEngine: FlowRulesHook {
    /// Decides a synchronous navigation (async host functions are refused inside it).
    public func decide(_ request: FlowRuleRequest<Route>) -> FlowRuleDecision<Route> {
        decideSpecialized(request)
    }

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
        let shape = command.shape
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
        switch command.shape.kind {
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
        // What the rule returned is checked with its location: a redirect's kind or reason of
        // the wrong type names the rule's file:line.
        do throws(FlowScriptError) {
            let reason = try results.optionalString(at: 3).map(FlowScriptText.bounded)
            if verdict == 1 {
                return .block(FlowRuleBlock(stage: stage, reason: reason ?? "blocked by the \(stage.rawValue) at \(location ?? "an unknown location")"))
            }
            guard results.type(at: 5) == .string else {
                throw FlowScriptError(kind: .badReturn, message: "a redirect's kind must be a string, got \(results.type(at: 5).name)")
            }
            return .redirect(kind: try results.string(at: 5), route: try results.value(at: 6), block: FlowRuleBlock(stage: stage, reason: reason), location: location)
        } catch {
            var error = error
            if error.file == nil, let location, let split = FlowScriptError.splitLocation(location + ": x") {
                error.file = split.file
                error.line = split.line
            }
            throw error
        }
    }

    /// The decision for a redirect: its target as a command of the app's routes.
    @usableFromInline
    func redirectDecision(kind: String, route: LuaValue, block: FlowRuleBlock, location: String?, summary: String) -> FlowRuleDecision<Route> {
        // Issue 21: `flow.redirect("dialog", ...)` (FlowRulesEngine+Dialogs.swift).
        if kind == "dialog" { return dialogRedirectDecision(route, block: block, location: location, summary: summary) }
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
