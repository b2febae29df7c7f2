import FlowStackCore
import Foundation

/// What a step's checks compare against: the state and history before it.
struct FuzzStepContext {
    var state: FlowRouterState<FuzzRoute, String>
    var historyCount: Int
}

extension FuzzExecutor {
    /// Starts a top-level step.
    func beginStep() -> FuzzStepContext {
        model.recorded = []
        return FuzzStepContext(state: router.state, historyCount: router.history.count)
    }

    /// Checks every invariant after a top-level step.
    func finishStep(_ context: FuzzStepContext, unchanged: Bool, step: FuzzStep) throws {
        stepsRun += 1
        try adopt(router.stacks, rootID: router.rootID, into: &model)
        let state = router.state
        let changed = state != context.state
        if unchanged {
            try expect(!changed, "unchanged",
                       "the step was not applied but changed the state: \(describe(context.state.stacks)) became \(describe(state.stacks))")
        }
        try checkDialogs()
        try checkHistory(context)
        // An unchanged state was checked when it was reached.
        if changed || stepsRun == 1 {
            try checkStructure(state)
            let decoded = try roundTrip(state)
            try expect(decoded == state, "codable", "the JSON round trip of \(describe(state.stacks)) differs: \(describe(decoded.stacks))")
            try checkPlan(from: context.state.stacks, to: state.stacks)
            let earlier = reached[(stepsRun &* 7) % reached.count]
            try checkPlan(from: earlier, to: state.stacks)
            try checkPlan(from: state.stacks, to: earlier)
            reached.append(state.stacks)
            if reached.count > 8 { reached.remove(at: 1) }
        }
        try expect(hook.problems.isEmpty, "rules", hook.problems.joined(separator: "; "))
        if let extraCheck, let problem = extraCheck(router) {
            throw FuzzViolation(kind: "injected", message: problem)
        }
    }

    /// Exactly one root stack, first; every identity unique.
    private func checkStructure(_ state: FlowRouterState<FuzzRoute, String>) throws {
        try expect(state.stacks.first?.style == .root, "root", "the first stack is not the root stack: \(describe(state.stacks))")
        try expect(state.stacks.dropFirst().allSatisfy { $0.style != .root && !$0.isRoot }, "root",
                   "a presented stack has style .root: \(describe(state.stacks))")
        try expect(state.problem == nil, "root", state.problem ?? "")
        var identities = Set([state.rootID])
        var total = 1
        for stack in state.stacks {
            let ids = [stack.id, stack.rootID] + stack.navigationPath.map(\.id)
            identities.formUnion(ids)
            total += ids.count
        }
        try expect(identities.count == total, "identity", "\(total - identities.count) identities repeat in \(describe(state.stacks))")
    }

    /// The visible dialog and queue match the model; a queue implies a visible dialog.
    private func checkDialogs() throws {
        try expect(router.globalDialog == model.dialog && router.queuedGlobalDialogs == model.queue
                   && router.queuedGlobalDialogCount == model.queue.count, "dialog",
                   "dialog \(router.globalDialog ?? "nil") queue \(router.queuedGlobalDialogs); "
                   + "the model expects \(model.dialog ?? "nil") queue \(model.queue)")
        try expect(router.queuedGlobalDialogs.isEmpty || router.globalDialog != nil, "dialog",
                   "dialogs are queued behind no visible dialog")
    }

    /// Bounded, in increasing order, and holding exactly the entries the model expects.
    private func checkHistory(_ context: FuzzStepContext) throws {
        let history = router.history
        let limit = router.maximumOperationHistoryCount
        try expect(limit <= 0 || history.count <= limit, "history", "\(history.count) entries exceed the bound \(limit)")
        // The new entries (and the one before them) every step; the whole history every 8 steps.
        var fresh: [FlowHistoryEntry<FuzzRoute>] = []
        var index = history.endIndex
        var next = Int.max
        while index > history.startIndex {
            index -= 1
            let entry = history[index]
            try expect(entry.sequence < next, "history", "sequence \(entry.sequence) precedes \(next)")
            next = entry.sequence
            guard entry.sequence > lastSequence else {
                if stepsRun % 8 == 0 { continue }
                break
            }
            fresh.append(entry)
        }
        fresh.reverse()
        let expected = model.recorded
        expectedHistoryCount += expected.count
        if limit > 0 { expectedHistoryCount = min(expectedHistoryCount, limit) }
        try expect(history.count == expectedHistoryCount, "history",
                   "the history holds \(history.count) entries; the model expects \(expectedHistoryCount)")
        let visible = limit > 0 ? Array(expected.suffix(limit)) : expected
        let actual = fresh.map { ModelEntry(status: $0.status, source: $0.source) }
        try expect(actual == visible, "history", "the step recorded \(actual); the model expects \(visible)")
        for entry in fresh where entry.status != .applied {
            try expect(entry.previousStacks == entry.newStacks, "history",
                       "an entry with outcome \(entry.status.rawValue) records changed stacks")
        }
        lastSequence = max(lastSequence, history.last?.sequence ?? lastSequence)
    }

    /// The staging plan from `shown` to `target` ends at `target` in single updates.
    func checkPlan(from shown: [FlowStackState<FuzzRoute>], to target: [FlowStackState<FuzzRoute>]) throws {
        let steps = FlowStagingPlanner.plan(from: shown, to: target)
        if shown == target {
            try expect(steps.isEmpty, "planner", "a plan between equal states has \(steps.count) steps")
            return
        }
        try expect(steps.last?.stacks == target, "planner",
                   "the plan from \(describe(shown)) to \(describe(target)) ends at \(describe(steps.last?.stacks ?? []))")
        var current = shown
        for step in steps {
            try expect(FlowStagingPlanner.isSingleUpdate(from: current, to: step.stacks) && Self.isOneUpdate(from: current, to: step.stacks),
                       "planner", "the plan step \(step.kind.rawValue) from \(describe(current)) to \(describe(step.stacks)) is not one update")
            current = step.stacks
        }
        // With several dismissals at once (iOS 17+, macOS 14+) the plan still ends at the target.
        let multiple = FlowStagingOptions(allowsMultipleDismissals: true)
        current = shown
        for step in FlowStagingPlanner.plan(from: shown, to: target, options: multiple) {
            try expect(FlowStagingPlanner.isSingleUpdate(from: current, to: step.stacks, options: multiple)
                && (step.kind != .replaceRoot || current.count == 1),
                "planner", "the multi-dismissal step \(step.kind.rawValue) from \(describe(current)) is not one update")
            current = step.stacks
        }
        try expect(current == target, "planner", "the multi-dismissal plan from \(describe(shown)) ends at \(describe(current))")
    }

    /// The test's own reading of "one SwiftUI update" in the conservative plan: a new root alone
    /// while nothing is presented, the dismissal of the front-most presentation only, path
    /// changes of the same stacks, or one presentation on top.
    static func isOneUpdate(from before: [FlowStackState<FuzzRoute>], to after: [FlowStackState<FuzzRoute>]) -> Bool {
        guard let root = after.first, root.style == .root else { return false }
        if before.first?.id != root.id { return after.count == 1 && before.count <= 1 }
        if after.count < before.count - 1 { return false }
        let sameStacks = { (a: ArraySlice<FlowStackState<FuzzRoute>>, b: ArraySlice<FlowStackState<FuzzRoute>>) in
            a.count == b.count && zip(a, b).allSatisfy { $0.id == $1.id && $0.style == $1.style }
        }
        if after.count < before.count { return Array(before.prefix(after.count)) == after }
        if after.count == before.count { return sameStacks(before[...], after[...]) }
        return after.count == before.count + 1 && Array(after.prefix(before.count)) == before
    }

    /// Compares the router's stacks with the model and adopts the identities the router just
    /// created; a fresh identity must never have been used before.
    func adopt(_ stacks: [FlowStackState<FuzzRoute>], rootID: UUID, into model: inout FuzzModel) throws {
        var agrees = stacks.count == model.stacks.count
        var paths: [[FlowRouteNode<FuzzRoute>]] = []
        for (stack, expected) in zip(stacks, model.stacks) where agrees {
            let path = stack.navigationPath
            paths.append(path)
            agrees = stack.root == expected.root && stack.style == expected.style && stack.options == expected.options
                && path.count == expected.path.count && zip(path, expected.path).allSatisfy { $0.route == $1.route }
        }
        if !agrees {
            let expected = model.stacks.map { "\($0.style.rawValue)\($0.routes.map(\.rawValue))" }.joined(separator: " ")
            throw FuzzViolation(kind: "model", message: "the router shows \(describe(stacks)); the model expects \(expected)")
        }
        for (position, stack) in stacks.enumerated() {
            try claim(&model.stacks[position].id, stack.id, "stack \(position)")
            try claim(&model.stacks[position].rootID, stack.rootID, "the root screen of stack \(position)")
            for (depth, node) in paths[position].enumerated() {
                try claim(&model.stacks[position].path[depth].id, node.id, "screen \(depth + 1) of stack \(position)")
            }
        }
        try claim(&model.rootID, rootID, "the router's rootID")
    }

    private func claim(_ slot: inout UUID?, _ actual: UUID, _ what: String) throws {
        if let known = slot {
            try expect(known == actual, "identity", "\(what) changed identity without being replaced")
        } else {
            try expect(seenIDs.insert(actual).inserted, "identity", "\(what) is new but reuses an earlier identity")
            slot = actual
        }
    }

    /// Stacks as `root[home, a] sheet[b]`.
    func describe(_ stacks: [FlowStackState<FuzzRoute>]) -> String {
        stacks.map { "\($0.style.rawValue)\($0.routes.map(\.rawValue))" }.joined(separator: " ")
    }
}
