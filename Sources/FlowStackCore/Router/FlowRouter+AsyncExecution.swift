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
        if let refusal = decidingRefusal(command) { return refusal }
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
            let before = stacks
            if let condition {
                for operation in command.operations where !(await condition(operation, before)) {
                    willChange()
                    return record(command, source: source, status: .blockedByPrecondition,
                                  reason: "the call's condition returned false", previous: stacks)
                }
            } else {
                if let refusal = checkDefaultPreconditions(command, stacks: before) {
                    willChange()
                    return record(command, source: source, status: refusal.0, reason: refusal.1, previous: stacks)
                }
                if let precondition = defaultAsyncPreconditions[command.operation.kind] {
                    for operation in command.operations where !(await precondition(operation, before)) {
                        willChange()
                        return record(command, source: source, status: .blockedByPrecondition,
                                      reason: "the default async precondition for \(operation.kind.rawValue) returned false", previous: stacks)
                    }
                }
            }
            // The guard comes after every precondition, sync and async (as in the sync path).
            if let refusal = checkGuard(command) {
                willChange()
                return record(command, source: source, status: refusal.0, reason: refusal.1, previous: stacks)
            }
            if let hook = rulesHook {
                let request = FlowRuleRequest(
                    command: command, parts: makeParts(source: source, isAsync: true, condition: condition != nil, chain: chain))
                decidingTask = FlowSerialQueue.currentTask
                decidedBy = hook.generation
                let decision = await hook.decideAsync(request)
                decidingTask = nil
                switch decision {
                case .allow:
                    break
                case .allowAfterFailure(let reason):
                    allowedReason = reason
                case .block(let block):
                    willChange()
                    // Issue 21: a navigation answered with a dialog (FlowRouter+DialogRules.swift).
                    if let dialog = block.dialog {
                        return answerWithDialog(
                            command, block: block, dialog: dialog, source: source, previous: stacks, generation: decidedBy)
                    }
                    return record(command, source: source, status: block.stage.status, reason: block.reason, previous: stacks,
                                  generation: decidedBy)
                case .redirect(let target, let block):
                    willChange()
                    if let loop = redirectLoop(command, to: target, chain: chain) {
                        return record(command, source: source, status: .failed, reason: loop, previous: stacks)
                    }
                    let reason = block.reason ?? "redirected to \(target.summary)"
                    let blocked = record(command, source: source, status: .redirected, reason: reason, previous: stacks,
                                         generation: decidedBy)
                    let followed = await runAsync(target, source: source, condition: nil, chain: chain + [command])
                    return FlowOperationResult(
                        command: command, status: .redirected, reason: reason, sequence: blocked.sequence,
                        generation: blocked.generation, redirect: followed
                    )
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
}
