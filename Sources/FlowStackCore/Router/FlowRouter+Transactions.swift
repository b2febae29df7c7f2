import Foundation

/// The bookkeeping of a running transaction.
@MainActor @usableFromInline
final class FlowTransactionState<Route: Hashable> {
    @usableFromInline var entries: [FlowHistoryEntry<Route>] = []
    /// Applied steps waiting for `didApplyOperation`, with the stacks after each: heard only
    /// when the transaction commits.
    var applied: [(FlowCommand<Route>, [FlowStackState<Route>])] = []
    var steps: [FlowOperationResult<Route>] = []
    @usableFromInline var failure: Int?
    /// The task running an async transaction (`transactionAsync`): a synchronous request from
    /// anywhere else is refused while it runs. `nil` for a synchronous transaction.
    @usableFromInline var ownerTask: Int?

    init(ownerTask: Int? = nil) {
        self.ownerTask = ownerTask
    }

    @usableFromInline
    func note(_ result: FlowOperationResult<Route>) {
        steps.append(result)
        guard failure == nil else { return }
        switch result.status {
        case .applied, .nothingToPop, .nothingToDismiss, .ignored, .rolledBack:
            break
        default:
            failure = steps.count - 1
        }
    }
}

/// The result of `transaction(_:)`.
public struct FlowTransactionResult<Route: Hashable> {
    /// Whether every step applied and the changes were kept.
    public let isCommitted: Bool
    /// Every step's result, in order (steps after a failure report `.rolledBack`).
    public let steps: [FlowOperationResult<Route>]
    /// The index of the step that was blocked, if any.
    public let failedStepIndex: Int?

    /// The blocked step's result, if any.
    public var failure: FlowOperationResult<Route>? {
        failedStepIndex.map { steps[$0] }
    }

    /// The redirect the blocking rule asked for (not performed by the transaction).
    public var pendingRedirect: FlowCommand<Route>? {
        failure?.pendingRedirect
    }

    /// Why the transaction was rolled back: the step, its operation and its reason.
    public var reason: String? {
        guard let index = failedStepIndex, let failure else { return nil }
        return "step \(index + 1) of \(steps.count) (\(failure.command.summary)) \(failure.status.phrase)"
            + (failure.reason.map { ": \($0)" } ?? "")
    }
}

extension FlowTransactionResult: Sendable where Route: Sendable {}

extension FlowRouter {
    /// Runs several actions all-or-nothing.
    ///
    /// Inside `body`, call the router's actions as usual. If any step is blocked (a precondition,
    /// the guard, a rule, a missing stack or route), later steps are not attempted, every change
    /// (stacks, dialogs, root identity) is undone, and only the blocked step is recorded in the
    /// history. A redirect asked for by the blocking rule is not performed; it is returned in
    /// `pendingRedirect`. `didApplyOperation` hears the applied steps once the transaction
    /// commits (a rolled-back transaction applied nothing). If `body` throws, the changes are undone and the error is rethrown.
    /// A transaction inside a transaction joins the outer one.
    @discardableResult
    public func transaction(_ body: (FlowRouter) throws -> Void) rethrows -> FlowTransactionResult<Route> {
        if let outer = transactionState {
            let first = outer.steps.count
            try body(self)
            let failed = outer.failure.flatMap { $0 >= first ? $0 - first : nil }
            return FlowTransactionResult(isCommitted: outer.failure == nil, steps: Array(outer.steps[first...]), failedStepIndex: failed)
        }
        let saved = savedState
        let state = FlowTransactionState<Route>()
        transactionState = state
        do {
            try body(self)
        } catch {
            transactionState = nil
            rollBack(to: saved, recording: nil)
            throw error
        }
        transactionState = nil
        return finish(state, saved: saved)
    }

    /// Runs the steps of `body` all-or-nothing, as `transaction(_:)`, where `body` may await the
    /// async pipeline (`runAsync`, whose results it notes with `note`). Call it in a turn of the
    /// async queue. While it runs, a synchronous request from another task is refused.
    func transactionAsync(_ body: (FlowRouter) async -> Void) async -> FlowTransactionResult<Route> {
        let saved = savedState
        let state = FlowTransactionState<Route>(ownerTask: FlowSerialQueue.currentTask)
        transactionState = state
        await body(self)
        transactionState = nil
        return finish(state, saved: saved)
    }

    /// What a transaction restores when it is rolled back.
    private var savedState: FlowTransactionSnapshot<Route, Dialog> {
        (storage.state.stacks, storage.state.globalDialog, storage.state.dialogQueue, storage.state.rootID,
         storage.state.tabSlots, storage.state.selectedTabIndex)
    }

    /// Commits or rolls back a transaction whose steps ran.
    private func finish(
        _ state: FlowTransactionState<Route>, saved: FlowTransactionSnapshot<Route, Dialog>
    ) -> FlowTransactionResult<Route> {
        guard let failedIndex = state.failure else {
            for entry in state.entries { storage.state.log.append(entry) }
            didChange(.transaction(committed: true, entries: state.entries))
            if let didApplyOperation {
                for (command, stacks) in state.applied {
                    for operation in command.operations { didApplyOperation(operation, stacks) }
                }
            }
            return FlowTransactionResult(isCommitted: true, steps: state.steps, failedStepIndex: nil)
        }
        let failed = state.steps[failedIndex]
        let blockedEntry = state.entries.first { $0.sequence == failed.sequence }
        rollBack(to: saved, recording: blockedEntry.map { entry in
            entry.rewritten(
                reason: "transaction rolled back at step \(failedIndex + 1): " + (entry.reason ?? entry.status.rawValue),
                previousStacks: saved.0, newStacks: saved.0
            )
        })
        let steps = state.steps.enumerated().map { index, step in
            index < failedIndex && step.status == .applied
                ? FlowOperationResult(command: step.command, status: .rolledBack,
                                      reason: "undone: step \(failedIndex + 1) of the transaction was blocked",
                                      sequence: nil, generation: step.generation)
                : step
        }
        return FlowTransactionResult(isCommitted: false, steps: steps, failedStepIndex: failedIndex)
    }

    private func rollBack(
        to saved: FlowTransactionSnapshot<Route, Dialog>,
        recording entry: FlowHistoryEntry<Route>?
    ) {
        willChange()
        (storage.state.stacks, storage.state.globalDialog, storage.state.dialogQueue, storage.state.rootID,
         storage.state.tabSlots, storage.state.selectedTabIndex) = saved
        if let entry { storage.state.log.append(entry) }
        didChange(.transaction(committed: false, entries: entry.map { [$0] } ?? []))
    }
}

/// What a transaction restores when it is rolled back: the stacks, the dialog and its queue, the
/// root's identity, the tabs and the selected tab.
typealias FlowTransactionSnapshot<Route: Hashable, Dialog> =
    ([FlowStackState<Route>], Dialog?, [Dialog], UUID, [FlowTabState<Route>], Int?)
