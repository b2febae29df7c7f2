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
            if let refusal = checkSwift(command, condition: condition, stacks: before) {
                return Output(record(command, source: source, status: refusal.0, reason: refusal.1, previous: before))
            }
            if rulesHook != nil {
                switch consult(command, source: source, condition: condition != nil, chain: chain) {
                case .allow:
                    break
                case .allowAfterFailure(let reason):
                    allowedReason = reason
                case .block(let block):
                    // Issue 21: a navigation answered with a dialog (FlowRouter+DialogRules.swift).
                    if let dialog = block.dialog {
                        return Output(answerWithDialog(command, block: block, dialog: dialog, source: source, previous: before))
                    }
                    return Output(record(
                        command, source: source, status: block.stage.status, reason: block.reason, previous: before))
                case .redirect(let target, let block):
                    return Output(redirect(command, to: target, block: block, source: source, chain: chain, previous: before))
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
        if let refusal = decidingRefusal(command) { return refusal }
        if let transaction = transactionState, transaction.failure != nil {
            return FlowOperationResult(
                command: command, status: .rolledBack,
                reason: "not attempted: an earlier step of the transaction was blocked",
                generation: rulesHook?.generation ?? 0
            )
        }
        return nil
    }

    /// The Swift checks: one-off condition or defaults, then the guard.
    @inlinable
    func checkSwift(
        _ command: FlowCommand<Route>, condition: Precondition?, stacks before: [FlowStackState<Route>]
    ) -> (FlowOperationStatus, String)? {
        if command.batch != nil {
            return checkSwiftBatch(command, condition: condition, stacks: before)
        }
        // The operation is read in place: a local copy of it costs an outlined copy of the whole
        // enum on every navigation, even when no Swift check runs.
        if let condition {
            if !condition(command.operation, before) {
                return (.blockedByPrecondition, "the call's condition returned false")
            }
        } else if let precondition = preconditionTable[command.shape.kind.tableIndex], !precondition(command.operation, before) {
            return defaultRefusal(command.shape.kind)
        }
        if let guardOperation, !guardOperation(command.operation) {
            return (.blockedByGuard, "guardOperation returned false")
        }
        return nil
    }

    @usableFromInline
    func defaultRefusal(_ kind: FlowOperationKind) -> (FlowOperationStatus, String) {
        (.blockedByPrecondition, "the default precondition for \(kind.rawValue) returned false")
    }

    @usableFromInline
    func checkSwiftBatch(
        _ command: FlowCommand<Route>, condition: Precondition?, stacks before: [FlowStackState<Route>]
    ) -> (FlowOperationStatus, String)? {
        let operations = command.operations
        if let condition {
            for operation in operations where !condition(operation, before) {
                return (.blockedByPrecondition, "the call's condition returned false")
            }
        } else if let precondition = preconditionTable[command.shape.kind.tableIndex] {
            for operation in operations where !precondition(operation, before) {
                return defaultRefusal(operation.kind)
            }
        }
        if let guardOperation {
            for operation in operations where !guardOperation(operation) {
                return (.blockedByGuard, "guardOperation returned false")
            }
        }
        return nil
    }

    /// The refusal of a request made while a rule decides (from a synchronous rule, or from the
    /// task of a suspended asynchronous one), or `nil`.
    func decidingRefusal(_ command: FlowCommand<Route>) -> FlowOperationResult<Route>? {
        guard isDeciding || (decidingTask != nil && decidingTask == FlowSerialQueue.currentTask) else { return nil }
        return FlowOperationResult(
            command: command, status: .failed,
            reason: "navigation was requested while a rule was deciding; rules navigate only through a redirect",
            generation: rulesHook?.generation ?? 0
        )
    }

    /// The default (sync) precondition for the command's kind.
    func checkDefaultPreconditions(
        _ command: FlowCommand<Route>, stacks before: [FlowStackState<Route>]
    ) -> (FlowOperationStatus, String)? {
        guard let precondition = preconditionTable[command.operation.kind.tableIndex] else { return nil }
        for operation in command.operations where !precondition(operation, before) {
            return defaultRefusal(operation.kind)
        }
        return nil
    }

    /// `guardOperation`, asked for every operation of the command.
    func checkGuard(_ command: FlowCommand<Route>) -> (FlowOperationStatus, String)? {
        guard let guardOperation else { return nil }
        for operation in command.operations where !guardOperation(operation) {
            return (.blockedByGuard, "guardOperation returned false")
        }
        return nil
    }

    /// Asks the rules hook, with navigation from inside the decision refused.
    @inlinable
    func consult(
        _ command: FlowCommand<Route>, source: FlowOperationSource, condition: Bool, chain: [FlowCommand<Route>]
    ) -> FlowRuleDecision<Route> {
        if let dispatch = rulesDispatch, condition || !dispatch.decidesEveryCommand,
           dispatch.needsDecision(command, !condition) == false {
            return .allow
        }
        isDeciding = true
        defer { isDeciding = false }
        let parts = makeParts(source: source, isAsync: false, condition: condition, chain: chain)
        // The command is passed as it is when the hook can take it so: a request holds a copy.
        if let decideParts = rulesDispatch?.decideParts { return decideParts(command, parts) }
        let request = FlowRuleRequest(command: command, parts: parts)
        if let dispatch = rulesDispatch { return dispatch.decide(request) }
        // Only called with a hook installed (the hook is read here, not on the specialized path).
        return rulesHook?.decide(request) ?? .allow
    }

    /// What the rules are told about a request besides its command, as the router is now.
    @inlinable
    func makeParts(
        source: FlowOperationSource, isAsync: Bool, condition: Bool, chain: [FlowCommand<Route>]
    ) -> FlowRuleRequestParts<Route> {
        FlowRuleRequestParts(
            source: source, isAsync: isAsync, stacks: _stacks, runsDefaultPreconditions: !condition,
            dialog: globalDialog == nil ? nil : dialogKey(globalDialog), queuedDialogCount: dialogQueue.count,
            redirectChain: chain)
    }

    /// Records a redirected request and runs (or, in a transaction, defers) its target.
    @usableFromInline
    func redirect(
        _ command: FlowCommand<Route>,
        to target: FlowCommand<Route>,
        block: FlowRuleBlock,
        source: FlowOperationSource,
        chain: [FlowCommand<Route>],
        previous: [FlowStackState<Route>]
    ) -> FlowOperationResult<Route> {
        if let loop = redirectLoop(command, to: target, chain: chain) {
            return record(command, source: source, status: .failed, reason: loop, previous: previous)
        }
        let reason = block.reason ?? "redirected to \(target.summary)"
        if transactionState != nil {
            return record(command, source: source, status: .redirected, reason: reason, previous: previous, pendingRedirect: target)
        }
        let blocked = record(command, source: source, status: .redirected, reason: reason, previous: previous)
        let followed: FlowOperationResult<Route> = run(target, source: source, condition: nil, chain: chain + [command])
        return FlowOperationResult(
            command: command, status: .redirected, reason: reason, sequence: blocked.sequence,
            generation: blocked.generation, redirect: followed
        )
    }

    /// The message of a redirect loop, or `nil` while the chain is short enough.
    func redirectLoop(_ command: FlowCommand<Route>, to target: FlowCommand<Route>, chain: [FlowCommand<Route>]) -> String? {
        guard chain.count + 1 > Self.maximumRedirects else { return nil }
        let steps = (chain + [command, target]).map(\.summary).joined(separator: " → ")
        return "redirect loop: more than \(Self.maximumRedirects) redirects: \(steps); make one of these rules allow its target"
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

extension FlowRuleStage {
    /// The outcome a block at this stage records.
    @inlinable
    var status: FlowOperationStatus {
        switch self {
        case .precondition: .blockedByPrecondition
        case .guard: .blockedByGuard
        case .error: .failed
        }
    }
}
