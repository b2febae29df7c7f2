import FlowStack
import Foundation

extension FlowRulesEngine: FlowRulesHook {
    /// Decides a synchronous navigation (async host functions are refused inside it).
    public func decide(_ request: FlowRuleRequest<Route>) -> FlowRuleDecision<Route> {
        guard let set = ruleSet else { return .allow }
        let command = request.command
        let kind = command.kindName
        guard set.needsDecision(kind: kind, runsDefaults: request.runsDefaultPreconditions,
                                routeNames: Self.guardedRoutes(command).lazy.map { self.routeValue($0).name }) else {
            return .allow
        }
        snapshots[0] = request.stacks
        defer { snapshots[0] = nil }
        do {
            return try set.vm.call(
                set.decideFunction,
                arguments: { writer throws(FlowScriptError) in self.pushDecisionArguments(request, snapshot: 0, on: writer) },
                results: { results throws(FlowScriptError) in try self.readDecision(results) }
            )
        } catch {
            return failure(set.relocated(error), request: request)
        }
    }

    /// Decides a navigation of the async queue: rules may call asynchronous host functions.
    public func decideAsync(_ request: FlowRuleRequest<Route>) async -> FlowRuleDecision<Route> {
        guard let set = ruleSet else { return .allow }
        let command = request.command
        guard set.needsDecision(kind: command.kindName, runsDefaults: request.runsDefaultPreconditions,
                                routeNames: Self.guardedRoutes(command).map { routeValue($0).name }) else {
            return .allow
        }
        let snapshot = nextSnapshot
        nextSnapshot += 1
        snapshots[snapshot] = request.stacks
        set.beginCall()
        defer {
            snapshots[snapshot] = nil
            set.endCall()
        }
        do {
            return try await set.vm.callAsync(
                set.decideFunction,
                arguments: { writer throws(FlowScriptError) in self.pushDecisionArguments(request, snapshot: snapshot, on: writer) },
                results: { results throws(FlowScriptError) in try self.readDecision(results) }
            )
        } catch {
            return failure(set.relocated(error), request: request)
        }
    }

    /// The generation recorded in the history.
    public var rulesGeneration: Int { generation }

    func pushDecisionArguments(_ request: FlowRuleRequest<Route>, snapshot: Int, on writer: LuaStackWriter) {
        let command = request.command
        writer.reserve(12)
        writer.push(command.kindName)
        var routeList: [Route]?
        switch command.operation {
        case .pop, .popToRoot, .dismiss, .dismissAll:
            writer.pushNil()
        case .replacePath(let root, let path, _):
            push(root, on: writer)
            routeList = [root] + path
        case .setRoot(let route), .present(let route, _):
            push(route, on: writer)
            if !command.path.isEmpty { routeList = [route] + command.path }
        case .push(let route, _), .pushRemovingPrevious(let route, _), .replaceCurrent(let route, _),
             .popTo(let route, _, _):
            if let batch = command.batch {
                writer.pushNil()
                routeList = batch
            } else {
                push(route, on: writer)
            }
        }
        if let routeList {
            writer.pushTable(arrayCount: routeList.count) { table in
                for route in routeList {
                    table.appendPushed { self.push(route, on: writer) }
                }
            }
        } else {
            writer.pushNil()
        }
        if case .pop(let count, _) = command.operation { writer.push(count) } else { writer.pushNil() }
        if let index = request.targetIndex { writer.push(index + 1) } else { writer.pushNil() }
        writer.push(request.source.rawValue)
        writer.push(request.isAsync)
        writer.push(request.runsDefaultPreconditions)
        writer.push(request.dialog)
        writer.push(request.queuedDialogCount)
        writer.push(generation)
        writer.push(snapshot)
    }

    /// The routes route guards run for: the command's routes plus the initial path of a
    /// `setRoot` or a presentation (those screens are shown too).
    static func guardedRoutes(_ command: FlowCommand<Route>) -> [Route] {
        command.path.isEmpty ? command.routes : command.routes + command.path
    }

    /// Pushes a route as its script table.
    func push(_ route: Route, on writer: LuaStackWriter) {
        let value = routeValue(route)
        writer.pushTable(fieldCount: value.payload.count + 1) { table in
            table.set("name", value.name)
            for (key, field) in value.payload where key != "name" {
                try? table.set(key, field.luaValue)
            }
        }
    }

    func readDecision(_ results: LuaResults) throws(FlowScriptError) -> FlowRuleDecision<Route> {
        let verdict = try results.string(at: 1)
        if verdict == "allow" { return .allow }
        let stage: FlowRuleStage = try results.string(at: 2) == "guard" ? .guard : .precondition
        let where_ = try results.optionalString(at: 4)
        let reason = try results.optionalString(at: 3)
        if verdict == "block" {
            return .block(FlowRuleBlock(stage: stage, reason: reason ?? defaultReason(stage, where_)))
        }
        let kind = try results.string(at: 5)
        let target = try command(kind: kind, route: try results.value(at: 6), count: nil, target: nil, match: nil, context: where_)
        return .redirect(target, FlowRuleBlock(stage: stage, reason: reason ?? "redirected by \(where_ ?? "a rule") to \(target.summary)"))
    }

    private func defaultReason(_ stage: FlowRuleStage, _ location: String?) -> String {
        "blocked by the \(stage.rawValue) at \(location ?? "an unknown location")"
    }

    /// The decision for a rule failure, by the failure policy.
    func failure(_ error: FlowScriptError, request: FlowRuleRequest<Route>) -> FlowRuleDecision<Route> {
        let reason = error.description
        switch configuration.failurePolicy {
        case .failClosed:
            configuration.logger.error("rule failed, \(request.command.summary) blocked: \(reason)")
            return .block(FlowRuleBlock(stage: .error, reason: reason))
        case .failOpen:
            note(FlowScriptDiagnostic(severity: .error, file: error.file, line: error.line, message: "rule failed, \(request.command.summary) allowed (fail open): \(error.message)"))
            return .allowAfterFailure(reason)
        }
    }
}
