import FlowStackCore
import Foundation

/// An invariant a fuzzed sequence broke: which one, and what was seen.
struct FuzzViolation: Error, CustomStringConvertible {
    /// The invariant's short name (`model`, `history`, `planner`, ...); shrinking keeps it.
    var kind: String
    var message: String
    /// The index of the top-level step after which it was detected.
    var stepIndex = 0

    var description: String { "[\(kind)] \(message)" }
}

/// Thrown by a `transaction(_:throwing: true)` step's body.
struct FuzzThrown: Error {}

/// Runs fuzzed steps against a fresh router and the reference model in lockstep, checking the
/// invariants after every step.
@MainActor
final class FuzzExecutor {
    let router = FuzzRouter(root: .home)
    let hook = FuzzRulesHook()
    var model = FuzzModel(root: .home)
    /// Every identity the router has handed out in this sequence (fresh ones must be new).
    var seenIDs = Set<UUID>()
    /// Stacks reached so far, for planning between arbitrary states.
    var reached: [[FlowStackState<FuzzRoute>]] = []
    /// The highest history sequence number seen.
    var lastSequence = 0
    /// The history length the model expects.
    var expectedHistoryCount = 0
    /// An extra check (the shrinker's self-test injects a fault this way).
    let extraCheck: ((FuzzRouter) -> String?)?
    /// Steps whose invariants were checked.
    var stepsRun = 0
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()

    init(extraCheck: ((FuzzRouter) -> String?)? = nil) {
        self.extraCheck = extraCheck
        hook.router = router
        router.installRules(hook)
    }

    /// Runs synchronous steps; returns the first violation, or `nil`.
    func run(_ steps: [FuzzStep]) -> FuzzViolation? {
        do {
            try start()
            for (index, step) in steps.enumerated() {
                do {
                    let context = beginStep()
                    let unchanged = try apply(step)
                    try finishStep(context, unchanged: unchanged, step: step)
                } catch var violation as FuzzViolation {
                    violation.stepIndex = index
                    return violation
                }
            }
            return nil
        } catch let violation as FuzzViolation {
            return violation
        } catch {
            return FuzzViolation(kind: "error", message: "unexpected error \(error)")
        }
    }

    /// Adopts the initial state's identities and checks it.
    func start() throws {
        try adopt(router.stacks, rootID: router.rootID, into: &model)
        reached.append(router.stacks)
    }

    // MARK: Steps

    /// Applies one step to the router and the model; returns whether the step must have left the
    /// router's state unchanged.
    func apply(_ step: FuzzStep) throws -> Bool {
        switch step {
        case .action(let op, let condition, let rules):
            return try action(op, condition: condition, rules: rules)
        case .asyncAction, .queued:
            throw FuzzViolation(kind: "harness", message: "an async step in a synchronous sequence")
        case .showDialog(let dialog, let policy):
            let shown = router.requestGlobalDialog(dialog, policy: policy)
            try expect(shown == model.show(dialog, policy: policy), "model",
                       "showGlobalDialog(\(dialog), .\(policy.rawValue)) returned \(shown)")
            return false
        case .hideDialog(let byUser):
            let source: FlowOperationSource = byUser ? .user : .code
            if byUser { router.userDidHideGlobalDialog() } else { router.hideGlobalDialog() }
            model.hide(source: source)
            return false
        case .clearDialogs:
            router.clearGlobalDialogs()
            model.clearDialogs()
            return false
        case .transaction(let steps, let throwing):
            return try transaction(steps, throwing: throwing)
        case .userPop, .userPopTo, .userDismiss, .userChangePath:
            return try gesture(step)
        case .setGuard(let gate):
            router.guardOperation = gate?.asGuard
            model.guardGate = gate
        case .setDefault(let kind, let gate):
            router.setDefaultPrecondition(for: kind, gate?.asPrecondition)
            model.defaults[kind] = gate
        case .setAsyncDefault(let kind, let gate):
            router.setDefaultAsyncPrecondition(for: kind, gate?.asAsyncPrecondition)
            model.asyncDefaults[kind] = gate
        case .clearDefaults:
            router.clearDefaultPreconditions()
            model.defaults = [:]
            model.asyncDefaults = [:]
        case .setRules(let on):
            if on { router.installRules(hook) } else { router.removeRules() }
            model.rulesInstalled = on
        case .setHistoryLimit(let limit):
            router.maximumOperationHistoryCount = limit
            model.historyLimit = limit
            if limit > 0 { expectedHistoryCount = min(expectedHistoryCount, limit) }
        case .clearHistory:
            router.clearOperationHistory()
            expectedHistoryCount = 0
        case .restoreRoundTrip:
            try router.restore(roundTrip(router.state))
        }
        return true
    }

    /// A public action with a one-off condition and scripted rules.
    private func action(_ op: FuzzOp, condition: FuzzGate?, rules: [FuzzDecision]) throws -> Bool {
        let ids = router.stacks.map(\.id)
        hook.script = FuzzScript(rules)
        let applied = op.call(router, condition: condition?.asPrecondition)
        return try check(op, applied: applied, ids: ids, condition: condition, rules: rules)
    }

    /// Compares a sync action's result with the model; returns whether it left the state as it was.
    func check(_ op: FuzzOp, applied: Bool, ids: [UUID], condition: FuzzGate?, rules: [FuzzDecision]) throws -> Bool {
        guard let command = op.command(ids) else {
            try expect(applied, "model", "\(op) must return true without making a request")
            try expectConsulted(0, op)
            return true
        }
        var script = FuzzScript(rules)
        let result = model.perform(command, source: .code, condition: condition, script: &script)
        try expect(applied == (result.status == .applied), "model",
                   "\(op) returned \(applied); the model expects \(result.status.rawValue)")
        try expectConsulted(script.next, op)
        return !result.changedStacks
    }

    /// The rules must have been asked exactly as often as the model asked them.
    func expectConsulted(_ expected: Int, _ what: CustomStringConvertible) throws {
        try expect(hook.script.next == expected, "rules",
                   "\(what): the rules were consulted \(hook.script.next) times; the model expects \(expected)")
    }

    /// A transaction (or, inside one, a nested transaction that joins it).
    private func transaction(_ steps: [FuzzStep], throwing: Bool) throws -> Bool {
        let outermost = model.beginTransaction()
        let firstStep = model.transaction!.steps
        var result: FlowTransactionResult<FuzzRoute>?
        var threw = false
        do {
            result = try router.transaction { _ in
                for step in steps {
                    _ = try self.apply(step)
                    try self.adopt(self.router.stacks, rootID: self.router.rootID, into: &self.model)
                }
                if throwing { throw FuzzThrown() }
            }
        } catch is FuzzThrown {
            threw = true
            if !outermost { throw FuzzThrown() }
        }
        let stepCount = model.transaction!.steps - firstStep
        let failedIndex = outermost
            ? model.endTransaction(threw: threw)
            : model.transaction!.failedIndex.flatMap { $0 >= firstStep ? $0 - firstStep : nil }
        if let result {
            let committed = outermost ? failedIndex == nil : model.transaction!.failedIndex == nil
            try expect(result.isCommitted == committed && result.failedStepIndex == failedIndex && result.steps.count == stepCount,
                       "transaction",
                       "the transaction reported committed \(result.isCommitted), failed step \(String(describing: result.failedStepIndex)), "
                       + "\(result.steps.count) steps; the model expects \(committed), \(String(describing: failedIndex)), \(stepCount) steps")
        }
        return outermost && (threw || failedIndex != nil)
    }

    /// A user gesture, reported by the UI layer.
    private func gesture(_ step: FuzzStep) throws -> Bool {
        let ids = router.stacks.map(\.id)
        hook.script = FuzzScript([])
        let result: FlowOperationResult<FuzzRoute>?
        let command: FlowCommand<FuzzRoute>?
        switch step {
        case .userPop:
            result = router.userDidPop()
            command = userPop(stackID: ids[ids.count - 1], depth: (model.stacks.last?.path.count ?? 0) - 1)
        case .userPopTo(let depth, let target):
            result = router.userDidPop(toDepth: depth, in: target.stackID(ids))
            command = userPop(stackID: target.stackID(ids), depth: depth)
        case .userDismiss(let target):
            let id = target?.stackID(ids) ?? ids[ids.count - 1]
            result = target == nil ? router.userDidDismiss() : router.userDidDismiss(stackID: id)
            let position = model.stacks.firstIndex { $0.id == id }
            command = position.map { $0 > 0 } == true ? FlowCommand(.dismiss(target: .stack(id))) : nil
        case .userChangePath(let edit, let target):
            let id = target.stackID(ids)
            let current = model.stacks.first { $0.id == id }.map { $0.path.map(\.route) }
            result = router.userDidChangePath(current.map { edit.apply(to: $0) } ?? [], in: id)
            command = current.flatMap { userChange(from: $0, to: edit.apply(to: $0), stackID: id) }
        default:
            throw FuzzViolation(kind: "harness", message: "\(step) is not a gesture")
        }
        try expectConsulted(0, step)
        guard let command else {
            try expect(result == nil, "model", "\(step) made a request (\(result?.status.rawValue ?? "")); the model expects none")
            return true
        }
        var script = FuzzScript([])
        let expected = model.perform(command, source: .user, condition: nil, script: &script)
        try expect(result?.status == expected.status, "model",
                   "\(step) had outcome \(result?.status.rawValue ?? "none"); the model expects \(expected.status.rawValue)")
        return !expected.changedStacks
    }

    /// The request `userDidPop(toDepth:in:)` makes, or `nil` when it makes none.
    private func userPop(stackID: UUID, depth: Int) -> FlowCommand<FuzzRoute>? {
        guard let stack = model.stacks.first(where: { $0.id == stackID }) else { return nil }
        let count = stack.path.count - max(0, depth)
        return count > 0 ? FlowCommand(.pop(count: count, target: .stack(stackID))) : nil
    }

    /// The request `userDidChangePath` makes: a pop, a push of the added screens, or a new path.
    private func userChange(from current: [FuzzRoute], to routes: [FuzzRoute], stackID: UUID) -> FlowCommand<FuzzRoute>? {
        if routes.count < current.count, Array(current.prefix(routes.count)) == routes {
            return userPop(stackID: stackID, depth: routes.count)
        }
        if routes.count > current.count, Array(routes.prefix(current.count)) == current {
            return FlowCommand.pushMany(Array(routes[current.count...]), target: .stack(stackID))
        }
        guard routes != current, let stack = model.stacks.first(where: { $0.id == stackID }) else { return nil }
        return FlowCommand(.replacePath(root: stack.root, path: routes, target: .stack(stackID)), refreshIfSameRoute: false)
    }

    /// The state after a JSON round trip.
    func roundTrip(_ state: FlowRouterState<FuzzRoute, String>) throws -> FlowRouterState<FuzzRoute, String> {
        try decoder.decode(FlowRouterState<FuzzRoute, String>.self, from: encoder.encode(state))
    }

    /// Throws a violation of `kind` unless `condition` holds.
    func expect(_ condition: Bool, _ kind: String, _ message: @autoclosure () -> String) throws {
        if !condition { throw FuzzViolation(kind: kind, message: message()) }
    }
}
