import FlowStackCore
import Foundation

/// What happened inside an async action's condition while it waited.
@MainActor
private final class FuzzInterleaving {
    var done = false
    var applied: Bool?
    var consulted = 0
    var stacks: [FlowStackState<FuzzRoute>] = []
    var rootID = UUID()
}

extension FuzzExecutor {
    /// Runs steps, awaiting the async ones; returns the first violation, or `nil`.
    func runAsync(_ steps: [FuzzStep]) async -> FuzzViolation? {
        do {
            try start()
        } catch {
            return error as? FuzzViolation ?? FuzzViolation(kind: "error", message: "\(error)")
        }
        for (index, step) in steps.enumerated() {
            do {
                let context = beginStep()
                let unchanged: Bool
                if case .asyncAction(let op, let condition, let rules, let interleave) = step {
                    unchanged = try await asyncAction(op, condition: condition, rules: rules, interleave: interleave)
                } else if case .queued(let op, let rules) = step {
                    let ids = router.stacks.map(\.id)
                    hook.script = FuzzScript(rules)
                    let router = router
                    let applied = await router.queued { op.call(router, condition: nil) }
                    unchanged = try check(op, applied: applied, ids: ids, condition: nil, rules: rules)
                } else {
                    unchanged = try apply(step)
                }
                try finishStep(context, unchanged: unchanged, step: step)
            } catch var violation as FuzzViolation {
                violation.stepIndex = index
                return violation
            } catch {
                return FuzzViolation(kind: "error", message: "unexpected error \(error)", stepIndex: index)
            }
        }
        return nil
    }

    /// An async action through the serialized queue: its async condition runs `interleave` (a
    /// sync action) while the action waits, so the state moves under the request.
    private func asyncAction(_ op: FuzzOp, condition: FuzzGate?, rules: [FuzzDecision], interleave: FuzzInterleave?) async throws -> Bool {
        let ids = router.stacks.map(\.id)
        hook.script = FuzzScript(rules)
        let seen = FuzzInterleaving()
        var asyncCondition: FuzzRouter.AsyncPrecondition?
        if let condition {
            let router = router
            let hook = hook
            asyncCondition = { operation, _ in
                if let interleave, !seen.done {
                    seen.done = true
                    let saved = hook.script
                    hook.script = FuzzScript(interleave.rules)
                    seen.applied = interleave.op.call(router, condition: nil)
                    seen.consulted = hook.script.next
                    hook.script = saved
                    seen.stacks = router.stacks
                    seen.rootID = router.rootID
                }
                await Task.yield()
                return condition.allows(operation)
            }
        }
        let applied = await op.callAsync(router, condition: asyncCondition)
        guard let command = op.command(ids) else {
            try expect(applied, "model", "\(op) must return true without making a request")
            return true
        }
        var interleaveProblem: FuzzViolation?
        var modelInterleaved = false
        var interleaveChanged = false
        var script = FuzzScript(rules)
        let result = model.performAsync(command, condition: condition, script: &script) { model in
            guard let interleave else { return }
            modelInterleaved = true
            do {
                guard let interleaved = interleave.op.command(ids) else { return }
                var inner = FuzzScript(interleave.rules)
                let expected = model.perform(interleaved, source: .code, condition: nil, script: &inner)
                interleaveChanged = expected.changedStacks
                try self.expect(seen.applied == (expected.status == .applied), "model",
                                "\(interleave.op) while waiting returned \(String(describing: seen.applied)); the model expects \(expected.status.rawValue)")
                try self.expect(seen.consulted == inner.next, "rules",
                                "\(interleave.op) while waiting consulted the rules \(seen.consulted) times; the model expects \(inner.next)")
                try self.adopt(seen.stacks, rootID: seen.rootID, into: &model)
            } catch {
                interleaveProblem = interleaveProblem ?? (error as? FuzzViolation)
            }
        }
        try expect(seen.done == modelInterleaved, "model",
                   "the async condition \(seen.done ? "ran" : "did not run"); the model expects the opposite")
        if let interleaveProblem { throw interleaveProblem }
        try expect(applied == (result.status == .applied), "model",
                   "await \(op) returned \(applied); the model expects \(result.status.rawValue)")
        try expectConsulted(script.next, "await \(op)")
        return !interleaveChanged && !result.changedStacks
    }
}
