import Foundation

extension FlowRouter {
    /// The most redirects one request may chain before it is reported as a redirect loop.
    public nonisolated static var maximumRedirects: Int { 8 }

    /// Runs one navigation request through the checks and returns its typed result.
    ///
    /// Order: the one-off `condition` (or the default preconditions for the kind), then
    /// `guardOperation`, then the rules hook. Requests from `source: .user` report what the person
    /// already did: they always apply and skip every check. Every request is recorded.
    @inlinable
    @discardableResult
    public func perform(
        _ command: consuming FlowCommand<Route>,
        source: FlowOperationSource = .code,
        condition: Precondition? = nil
    ) -> FlowOperationResult<Route> {
        let result: FlowOperationResult<Route> = run(command, source: source, condition: condition, chain: [])
        // A request a rule makes while deciding is refused; it is not a step of the transaction.
        if let transaction = transactionState, !isDeciding { transaction.note(result) }
        return result
    }

    /// Runs one operation (see `perform(_:source:condition:)`).
    @inlinable
    @discardableResult
    public func perform(
        _ operation: FlowOperation<Route>,
        source: FlowOperationSource = .code,
        condition: Precondition? = nil
    ) -> FlowOperationResult<Route> {
        perform(FlowCommand(operation), source: source, condition: condition)
    }

    /// Runs one command for an action that returns only whether it applied: as `perform`, but
    /// no result is built, so an applied command moves into the history without a copy.
    @inlinable
    func performApplied(_ command: consuming FlowCommand<Route>, condition: Precondition?) -> Bool {
        // A transaction keeps every step's result.
        if transactionState != nil { return perform(command, condition: condition).isApplied }
        let output: FlowAppliedFlag<Route> = run(command, source: .code, condition: condition, chain: [])
        return output.isApplied
    }

    @inlinable
    func run<Output: FlowRunOutput>(
        _ command: consuming FlowCommand<Route>,
        source: FlowOperationSource,
        condition: Precondition?,
        chain: [FlowCommand<Route>]
    ) -> Output where Output.Route == Route {
        if isDeciding || decidingTask != nil || transactionState?.failure != nil,
           let refusal = refusedWhileBusy(command) {
            return Output(refusal)
        }
        willChange()
        let before = _stacks
        if let (outcome, reason) = validate(command) {
            return Output(record(command, source: source, status: outcome, reason: reason, previous: before))
        }
        var allowedReason: String?
        if source != .user {
            if let refusal = checkPreconditions(command, condition: condition, stacks: before) ?? checkGuard(command) {
                return Output(record(command, source: source, status: refusal.0, reason: refusal.1, previous: before))
            }
            if let link = rules {
                switch consultRules(command, link: link, source: source, condition: condition != nil, chain: chain) {
                case .allow(let reason):
                    allowedReason = reason
                case .refuse(let status, let reason, let dialog):
                    if let dialog {
                        return Output(answerWithDialog(command, status: status, reason: reason, dialog: dialog, source: source, previous: before))
                    }
                    return Output(record(command, source: source, status: status, reason: reason, previous: before))
                case .redirect(let target, let reason):
                    switch redirect(command, to: target, reason: reason, source: source, chain: chain, previous: before) {
                    case .ended(let result):
                        return Output(result)
                    case .follow(let blocked):
                        let followed: FlowOperationResult<Route> = run(target, source: source, condition: nil, chain: chain + [command])
                        return Output(blocked.following(followed))
                    }
                }
            }
        }
        mutate(command)
        guard didApplyOperation != nil else {
            // Without a result to build, the command moves into the history entry.
            if let applied = Output.appliedWithoutResult {
                recordApplied(command, source: source, reason: allowedReason, previous: before)
                return applied
            }
            // The command moves into the result (the history entry gets a copy).
            return Output(record(command, source: source, status: .applied, reason: allowedReason, previous: before))
        }
        let result = record(copy command, source: source, status: .applied, reason: allowedReason, previous: before)
        notifyApplied(command)
        return Output(result)
    }

    /// The refusal of a request made while a rule decides (from a synchronous rule, or from the
    /// task of a suspended asynchronous one), or after a transaction step failed; `nil` when the
    /// request may run.
    @usableFromInline
    func refusedWhileBusy(_ command: FlowCommand<Route>) -> FlowOperationResult<Route>? {
        if isDeciding || (decidingTask != nil && decidingTask == FlowSerialQueue.currentTask) {
            return FlowOperationResult(
                command: command, status: .failed,
                reason: "navigation was requested while a rule was deciding; rules navigate only through a redirect",
                generation: generation
            )
        }
        if let transaction = transactionState, transaction.failure != nil {
            return FlowOperationResult(
                command: command, status: .rolledBack,
                reason: "not attempted: an earlier step of the transaction was blocked",
                generation: generation
            )
        }
        return nil
    }

    /// The one-off `condition`, or else the default precondition for the command's kind, asked
    /// for every operation of the command; the refusal, or `nil`.
    @inlinable @inline(__always)
    func checkPreconditions(
        _ command: FlowCommand<Route>, condition: Precondition?, stacks before: [FlowStackState<Route>]
    ) -> (FlowOperationStatus, String)? {
        guard let check = condition ?? preconditionTable[command.shape.kind.tableIndex] else { return nil }
        // A single operation is read in place: `operations` builds an array.
        let passes = command.batch == nil
            ? check(command.operation, before)
            : command.operations.allSatisfy { check($0, before) }
        if passes { return nil }
        if condition != nil { return (.blockedByPrecondition, "the call's condition returned false") }
        return (.blockedByPrecondition, "the default precondition for \(command.shape.kind.rawValue) returned false")
    }

    /// `guardOperation`, asked for every operation of the command; the refusal, or `nil`.
    @inlinable @inline(__always)
    func checkGuard(_ command: FlowCommand<Route>) -> (FlowOperationStatus, String)? {
        guard let guardOperation else { return nil }
        let passes = command.batch == nil
            ? guardOperation(command.operation)
            : command.operations.allSatisfy { guardOperation($0) }
        return passes ? nil : (.blockedByGuard, "guardOperation returned false")
    }

    /// Records a redirected request; then its target is followed (by the caller: `run` calls,
    /// `runAsync` awaits), unless the chain is a loop or a transaction defers it.
    @usableFromInline
    func redirect(
        _ command: FlowCommand<Route>,
        to target: FlowCommand<Route>,
        reason: String,
        source: FlowOperationSource,
        chain: [FlowCommand<Route>],
        previous: [FlowStackState<Route>],
        generation decidedBy: Int? = nil
    ) -> FlowRedirectStep<Route> {
        if chain.count + 1 > Self.maximumRedirects {
            let steps = (chain + [command, target]).map(\.summary).joined(separator: " → ")
            let loop = "redirect loop: more than \(Self.maximumRedirects) redirects: \(steps); make one of these rules allow its target"
            return .ended(record(command, source: source, status: .failed, reason: loop, previous: previous))
        }
        if transactionState != nil {
            return .ended(record(
                command, source: source, status: .redirected, reason: reason, previous: previous, pendingRedirect: target,
                generation: decidedBy))
        }
        return .follow(record(command, source: source, status: .redirected, reason: reason, previous: previous, generation: decidedBy))
    }

    @usableFromInline
    func notifyApplied(_ command: FlowCommand<Route>) {
        guard let didApplyOperation else { return }
        if let transaction = transactionState {
            transaction.applied.append((command, _stacks))
            return
        }
        for operation in command.operations {
            didApplyOperation(operation, _stacks)
        }
    }
}

/// What becomes of a redirected request: ended (a loop, or deferred by a transaction), or its
/// target is to be followed.
@usableFromInline
enum FlowRedirectStep<Route: Hashable> {
    /// The request's final result.
    case ended(FlowOperationResult<Route>)
    /// The request was recorded as redirected; follow its target.
    case follow(FlowOperationResult<Route>)
}

extension FlowOperationResult {
    /// This redirected request's result once its target ran with `followed`.
    @usableFromInline
    func following(_ followed: FlowOperationResult<Route>) -> FlowOperationResult<Route> {
        FlowOperationResult(
            command: command, status: .redirected, reason: reason, sequence: sequence, generation: generation,
            redirect: followed)
    }
}
