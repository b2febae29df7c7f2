import FlowLua
import FlowStackCore
import Foundation

extension FlowRulesEngine: FlowRulesHook {
    /// Decides a synchronous navigation (async host functions are refused inside it).
    public func decide(_ request: FlowRuleRequest) -> FlowRuleDecision {
        guard let set = ruleSet, needsDecision(request, in: set) else { return .allow }
        syncStacks = request.stacks
        if set.hasExperiments { beginExperimentDecision(request) }
        defer {
            syncStacks = nil
            if set.hasExperiments { endExperimentDecision() }
        }
        do {
            return try set.vm.callDecision(
                set.decideFunction,
                arguments: { writer in self.pushDecisionArguments(request, snapshot: 0, set: set, on: writer) },
                results: { results throws(FlowScriptError) in try self.readDecision(results) }
            ) ?? .allow
        } catch {
            return failure(set.relocated(error), summary: request.summary)
        }
    }

    /// Decides a navigation of the async queue: rules may call asynchronous host functions.
    public func decideAsync(_ request: FlowRuleRequest) async -> FlowRuleDecision {
        guard let set = ruleSet, needsDecision(request, in: set) else { return .allow }
        // The stacks stay readable under their own number while the decision is suspended.
        let snapshot = nextSnapshot
        nextSnapshot += 1
        snapshots[snapshot] = request.stacks
        set.beginCall()
        if set.hasExperiments { beginExperimentDecision(request) }
        defer {
            snapshots[snapshot] = nil
            set.endCall()
            if set.hasExperiments { endExperimentDecision() }
        }
        do {
            return try await set.vm.callAsync(
                set.decideFunction,
                arguments: { writer throws(FlowScriptError) in
                    self.pushDecisionArguments(request, snapshot: snapshot, set: set, on: writer)
                },
                results: { results throws(FlowScriptError) in try self.readDecision(results) }
            )
        } catch {
            return failure(set.relocated(error), summary: request.summary)
        }
    }

    /// A failure the router met carrying out a decision, by the failure policy.
    public func decideFailure(_ reason: String) -> FlowRuleDecision {
        failure(FlowScriptError(kind: .typeError, message: reason), summary: "a redirect")
    }

    /// Whether the rules have anything to say about a request: a default precondition for its
    /// kind (unless a one-off condition replaced them), or a guard of one of its routes.
    func needsDecision(_ request: FlowRuleRequest, in set: FlowRuleSet) -> Bool {
        if request.runsDefaultPreconditions, set.defaultsByKind[request.kind.position] { return true }
        guard !set.guardNames.isEmpty else { return false }
        if let route = request.route, set.guardNames.contains(route.name) { return true }
        for route in request.routes ?? [] where set.guardNames.contains(route.name) { return true }
        return false
    }

    /// The stacks a decision's `snapshot` number names (0: the synchronous decision's).
    package func stacks(ofSnapshot snapshot: Int) -> (any FlowRuleStacks)? {
        snapshot == 0 ? syncStacks : snapshots[snapshot]
    }

    /// Pushes what the prelude's `decide` takes: the route, the routes, the dialog, the tab a
    /// `selectTab` selects, the selected tab and every tab on the stack, the scalars straight to
    /// the memory decide reads them from.
    func pushDecisionArguments(_ request: FlowRuleRequest, snapshot: Int, set: FlowRuleSet, on writer: LuaStackWriter) {
        // A router without tabs passes the first three (decide makes the others nil).
        let tabbed = request.selectedTab != nil
        writer.reserve(tabbed ? 6 : 3)
        if let route = request.route {
            // A route without parameters goes as its name: decide makes `{ name = ... }` only if
            // a rule reads `op.route` (clua_op.c).
            if route.payload.isEmpty { writer.pushReserved(route.name) } else { Self.push(route, on: writer) }
        } else {
            writer.pushNilReserved()
        }
        if let routes = request.routes {
            writer.pushTable(arrayCount: routes.count) { table in
                for route in routes { table.appendPushed { Self.push(route, on: writer) } }
            }
        } else {
            writer.pushNilReserved()
        }
        if let dialog = request.dialog { writer.pushReserved(dialog) } else { writer.pushNilReserved() }
        if tabbed { pushTabArguments(request, on: writer) }
        guard let arguments = set.decisionArguments else {
            preconditionFailure("a loaded rule set always has the decide function's argument memory")
        }
        arguments.write(
            kind: request.kind.position, count: request.count, target: request.target,
            source: FlowRulesPrelude.sourcePosition(request.source), isAsync: request.isAsync,
            runsDefaults: request.runsDefaultPreconditions, queued: request.queuedDialogCount, generation: set.generation,
            snapshot: snapshot, stackCount: request.stackCount, frontScreens: request.frontScreenCount, tabbed: tabbed)
    }

    /// Pushes a tabbed router's op.tab (the tab a `selectTab` selects, or nil), ctx.tab (the
    /// selected tab) and ctx.tabs: `{ name, selected, stack = { id, index, presentation, routes } }`
    /// per tab, as flows' `router.tabs()` (decide freezes it).
    func pushTabArguments(_ request: FlowRuleRequest, on writer: LuaStackWriter) {
        if let tab = request.tab { writer.pushReserved(tab) } else { writer.pushNilReserved() }
        if let tab = request.selectedTab { writer.pushReserved(tab) } else { writer.pushNilReserved() }
        writer.pushTable(arrayCount: request.tabs.count) { table in
            for tab in request.tabs {
                table.appendTable(fieldCount: 3) { fields in
                    fields.set("name", tab.name)
                    fields.set("selected", tab.isSelected)
                    fields.setTable("stack", fieldCount: 4) { stack in
                        stack.set("id", tab.stackID)
                        stack.set("index", 1)
                        stack.set("presentation", "root")
                        stack.setTable("routes", arrayCount: tab.routes.count) { routes in
                            for route in tab.routes { routes.appendPushed { Self.push(route, on: writer) } }
                        }
                    }
                }
            }
        }
    }

    /// Pushes a route as its script table.
    package static func push(_ value: FlowRouteValue, on writer: LuaStackWriter) {
        writer.pushTable(fieldCount: value.payload.count + 1) { table in
            table.set("name", value.name)
            for (key, field) in value.payload where key != "name" {
                try? table.set(key, field.luaValue)
            }
        }
    }

    func readDecision(_ results: LuaResults) throws(FlowScriptError) -> FlowRuleDecision {
        let verdict = try results.integer(at: 1)
        if verdict == 0 { return .allow }
        let stage: FlowRuleStage = try results.string(at: 2) == "guard" ? .guard : .precondition
        let location = try results.optionalString(at: 4)
        onDecidingRule?(location)
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
            let kind = try results.string(at: 5)
            let resume = results.type(at: 7) == .boolean && results.isTruthy(at: 7)
            if kind == "dialog" {
                return .block(try dialogBlock(
                    try results.value(at: 6), block: FlowRuleBlock(stage: stage, reason: reason, resume: resume), location: location))
            }
            let target = try self.target(kind: kind, route: try results.value(at: 6), count: nil, match: nil, context: location)
            return .redirect(target, FlowRuleBlock(stage: stage, reason: reason, resume: resume))
        } catch {
            var error = error
            if error.file == nil, let location, let split = FlowScriptError.splitLocation(location + ": x") {
                error.file = split.file
                error.line = split.line
            }
            throw error
        }
    }

    /// The decision for a rule failure, by the failure policy.
    package func failure(_ error: FlowScriptError, summary: String) -> FlowRuleDecision {
        failsOpen(error, rule: "rule", summary: summary, refused: "blocked", allowed: "allowed")
            ? .allowAfterFailure(error.description) : .block(FlowRuleBlock(stage: .error, reason: error.description))
    }

    /// Whether the failure policy lets a request whose rule failed through (fail open); the
    /// failure is logged, or noted as a diagnostic when it lets the request through.
    func failsOpen(_ error: FlowScriptError, rule: String, summary: String, refused: String, allowed: String) -> Bool {
        switch configuration.failurePolicy {
        case .failClosed:
            configuration.logger.error("\(rule) failed, \(summary) \(refused): \(error.description)")
            return false
        case .failOpen:
            note(FlowScriptDiagnostic(
                severity: .error, file: error.file, line: error.line,
                message: "\(rule) failed, \(summary) \(allowed) (fail open): \(error.message)"))
            return true
        }
    }
}
