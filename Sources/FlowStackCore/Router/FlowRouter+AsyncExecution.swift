import Foundation

extension FlowRouter {
    /// Runs a request through the serialized async queue and returns its typed result.
    ///
    /// The request waits for its turn (strict FIFO); then its preconditions (the one-off async
    /// `condition`, or the default sync and async ones), the guard and the rules (which may
    /// suspend) are evaluated against the state at that moment. After an applied transition the
    /// queue pauses for `queuedTransitionDelayNanoseconds`. A task cancelled while waiting is
    /// skipped and reports `.cancelled`. A request made from inside an async precondition runs
    /// within the current turn instead of waiting behind it.
    @discardableResult
    public func performAsync(
        _ command: FlowCommand<Route>,
        source: FlowOperationSource = .code,
        condition: AsyncPrecondition? = nil
    ) async -> FlowOperationResult<Route> {
        if let refusal = refusedWhileBusy(command) { return refusal }
        let ownsTurn = await serialQueue.enter()
        let result: FlowOperationResult<Route>
        if Task.isCancelled {
            willChange()
            result = record(
                command, source: source, status: .cancelled,
                reason: "the task was cancelled while waiting in the navigation queue", previous: stacks
            )
        } else {
            result = await runAsync(command, source: source, condition: condition, chain: [])
        }
        if queuedTransitionDelayNanoseconds > 0, result.isApplied || result.redirectApplied {
            try? await Task.sleep(nanoseconds: queuedTransitionDelayNanoseconds)
        }
        if ownsTurn { serialQueue.leave() }
        return result
    }

    /// Runs a closure as one turn of the async queue (FlowStack's `queued(_:)`).
    @discardableResult
    public func queued(_ action: @escaping @MainActor () -> Bool) async -> Bool {
        let ownsTurn = await serialQueue.enter()
        let didRun = action()
        if queuedTransitionDelayNanoseconds > 0 {
            try? await Task.sleep(nanoseconds: queuedTransitionDelayNanoseconds)
        }
        if ownsTurn { serialQueue.leave() }
        return didRun
    }

    /// The number of async requests waiting behind the running one.
    public var queuedTransitionCount: Int { serialQueue.waitingCount }

    /// The async pipeline: the steps of `run`, awaiting where `run` calls.
    func runAsync(
        _ command: FlowCommand<Route>,
        source: FlowOperationSource,
        condition: AsyncPrecondition?,
        chain: [FlowCommand<Route>]
    ) async -> FlowOperationResult<Route> {
        if let refusal = validate(command) {
            willChange()
            return record(command, source: source, status: refusal.0, reason: refusal.1, previous: stacks)
        }
        var allowedReason: String?
        var decidedBy: Int?
        if source != .user {
            if let refusal = await checkPreconditionsAsync(command, condition: condition, stacks: stacks) ?? checkGuard(command) {
                willChange()
                return record(command, source: source, status: refusal.0, reason: refusal.1, previous: stacks)
            }
            if let link = rules {
                decidedBy = link.hook.generation
                switch await consultRulesAsync(command, link: link, source: source, condition: condition != nil, chain: chain) {
                case .allow(let reason):
                    allowedReason = reason
                case .refuse(let status, let reason, let dialog):
                    willChange()
                    if let dialog {
                        return answerWithDialog(
                            command, status: status, reason: reason, dialog: dialog, source: source, previous: stacks,
                            generation: decidedBy)
                    }
                    return record(command, source: source, status: status, reason: reason, previous: stacks, generation: decidedBy)
                case .redirect(let target, let reason):
                    willChange()
                    switch redirect(command, to: target, reason: reason, source: source, chain: chain, previous: stacks,
                                    generation: decidedBy) {
                    case .ended(let result):
                        return result
                    case .follow(let blocked):
                        return blocked.following(await runAsync(target, source: source, condition: nil, chain: chain + [command]))
                    }
                }
            }
            // The checks may have suspended: the state can have moved under the request.
            if let refusal = validate(command) {
                willChange()
                return record(command, source: source, status: refusal.0, reason: refusal.1, previous: stacks)
            }
        }
        willChange()
        let before = stacks
        mutate(command)
        let result = record(command, source: source, status: .applied, reason: allowedReason, previous: before,
                            generation: decidedBy)
        notifyApplied(command)
        return result
    }

    /// The one-off async `condition`, or else the default sync then async preconditions for the
    /// command's kind; the refusal, or `nil`.
    func checkPreconditionsAsync(
        _ command: FlowCommand<Route>, condition: AsyncPrecondition?, stacks before: [FlowStackState<Route>]
    ) async -> (FlowOperationStatus, String)? {
        if let condition {
            for operation in command.operations where !(await condition(operation, before)) {
                return (.blockedByPrecondition, "the call's condition returned false")
            }
            return nil
        }
        if let refusal = checkPreconditions(command, condition: nil, stacks: before) { return refusal }
        guard let precondition = defaultAsyncPreconditions[command.operation.kind] else { return nil }
        for operation in command.operations where !(await precondition(operation, before)) {
            return (.blockedByPrecondition, "the default async precondition for \(operation.kind.rawValue) returned false")
        }
        return nil
    }
}
