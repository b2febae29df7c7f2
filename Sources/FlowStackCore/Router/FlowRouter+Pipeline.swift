import Foundation

// The one pipeline every navigation request runs through, sync or async:
//
//   decide   validate against the state, then (unless the person already did it) the
//            preconditions, `guardOperation` and the rules: a `FlowRulesVerdict`
//   settle   allowed: commit applied; refused: commit refused (or answer with a dialog);
//            redirected: commit redirected, then the driver follows the target
//   commit   `FlowRouterState.apply`, the history entry (`store`, the one place that records),
//            `didApplyOperation`; one willChange/didChange pair per commit (`commitDialog`
//            for a dialog request)
//
// The drivers `run` (sync) and `runAsync` (the async queue) differ only in how they await the
// preconditions and the rules, and in how they follow a redirect (call or await).
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
            result = commit(
                command, source: source, status: .cancelled,
                reason: "the task was cancelled while waiting in the navigation queue")
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

    // MARK: The drivers

    /// The synchronous driver: decide, then commit (allowed or refused by a check) or settle a
    /// rules' refusal or redirect, following a redirect by calling itself.
    @inlinable
    func run<Output: FlowRunOutput>(
        _ command: consuming FlowCommand<Route>,
        source: FlowOperationSource,
        condition: Precondition?,
        chain: [FlowCommand<Route>]
    ) -> Output where Output.Route == Route {
        if isDeciding || decidingTask != nil || transactionState != nil,
           let refusal = refusedWhileBusy(command) ?? refusedOutsideAsyncTransaction(command) {
            return Output(refusal)
        }
        if let refusal = storage.state.validate(command) {
            return commit(command, source: source, status: refusal.0, reason: refusal.1)
        }
        var allowedReason: String?
        if source != .user {
            // A tab selection has its own Swift check (`FlowOperation` cannot name it).
            if let refusal = command.tab == nil
                ? checkPreconditions(command, condition: condition) ?? checkGuard(command)
                : checkTabSelection(command) {
                return commit(command, source: source, status: refusal.0, reason: refusal.1)
            }
            if let link = rules {
                // The common answer, allow, goes straight to the commit below.
                let verdict = consultRules(command, link: link, source: source, condition: condition != nil, chain: chain)
                if case .allow(let reason) = verdict {
                    allowedReason = reason
                } else {
                    let settled: FlowSettled<Route, Output> = settle(command, verdict, source: source, chain: chain, generation: nil)
                    switch consume settled {
                    case .done(let output):
                        return output
                    case .follow(let target, let blocked):
                        let followed: FlowOperationResult<Route> = run(
                            target, source: source, condition: nil, chain: chain + [blocked.command])
                        noteHeldRedirect(blocked, followed)
                        return Output(blocked.following(followed))
                    }
                }
            }
        }
        return commit(command, source: source, status: .applied, reason: allowedReason)
    }

    /// The async driver: the steps of `run`, awaiting the preconditions and the rules, which
    /// may suspend (so the state is validated again after them).
    func runAsync(
        _ command: FlowCommand<Route>,
        source: FlowOperationSource,
        condition: AsyncPrecondition?,
        chain: [FlowCommand<Route>]
    ) async -> FlowOperationResult<Route> {
        var verdict: FlowRulesVerdict<Route> = .allow(reason: nil)
        var decidedBy: Int?
        if let refusal = storage.state.validate(command) {
            verdict = .refuse(refusal.0, reason: refusal.1)
        } else if source != .user {
            let refusal = command.tab == nil
                ? await checkPreconditionsAsync(command, condition: condition) ?? checkGuard(command)
                : checkTabSelection(command)
            if let refusal {
                verdict = .refuse(refusal.0, reason: refusal.1)
            } else if let link = rules {
                decidedBy = link.hook.generation
                verdict = await consultRulesAsync(command, link: link, source: source, condition: condition != nil, chain: chain)
            }
            // The checks may have suspended: the state can have moved under the request.
            if case .allow = verdict, let refusal = storage.state.validate(command) {
                verdict = .refuse(refusal.0, reason: refusal.1)
                decidedBy = nil
            }
        }
        let settled: FlowSettled<Route, FlowOperationResult<Route>> = settle(
            command, verdict, source: source, chain: chain, generation: decidedBy, isAsync: true)
        switch settled {
        case .done(let result):
            return result
        case .follow(let target, let blocked):
            let followed = await runAsync(target, source: source, condition: nil, chain: chain + [command])
            noteHeldRedirect(blocked, followed)
            return blocked.following(followed)
        }
    }

    // MARK: Decide

    /// The refusal of a request made while a rule decides (from a synchronous rule, or from the
    /// task of a suspended asynchronous one), or after a transaction step failed; `nil` when the
    /// request may run.
    @usableFromInline
    func refusedWhileBusy(_ command: FlowCommand<Route>) -> FlowOperationResult<Route>? {
        if isRuleDeciding {
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

    /// The refusal of a synchronous request made from outside an async transaction (a held
    /// navigation resuming through the async queue) while it runs; `nil` when the request may run.
    @usableFromInline
    func refusedOutsideAsyncTransaction(_ command: FlowCommand<Route>) -> FlowOperationResult<Route>? {
        guard let owner = transactionState?.ownerTask, owner != FlowSerialQueue.currentTask else { return nil }
        return FlowOperationResult(
            command: command, status: .failed,
            reason: "navigation was requested while a held navigation resumes through the async queue; "
                + "navigate after it (or with an Async call, which waits its turn)",
            generation: generation
        )
    }

    /// Whether a rule is deciding now: a synchronous one, or a suspended asynchronous one whose
    /// task is the caller's.
    var isRuleDeciding: Bool {
        isDeciding || (decidingTask != nil && decidingTask == FlowSerialQueue.currentTask)
    }

    /// The one-off `condition`, or else the default precondition for the command's kind, asked
    /// for every operation of the command; the refusal, or `nil`.
    @inlinable @inline(__always)
    func checkPreconditions(_ command: FlowCommand<Route>, condition: Precondition?) -> (FlowOperationStatus, String)? {
        guard let check = condition ?? storage.preconditionTable[command.shape.kind.tableIndex] else { return nil }
        let before = storage.state.stacks
        // A single operation is read in place: `operations` builds an array.
        let passes = command.batch == nil
            ? check(command.operation, before)
            : command.operations.allSatisfy { check($0, before) }
        if passes { return nil }
        if condition != nil { return (.blockedByPrecondition, "the call's condition returned false") }
        return (.blockedByPrecondition, "the default precondition for \(command.shape.kind.rawValue) returned false")
    }

    /// The one-off async `condition`, or else the default sync then async preconditions for the
    /// command's kind; the refusal, or `nil`.
    func checkPreconditionsAsync(_ command: FlowCommand<Route>, condition: AsyncPrecondition?) async -> (FlowOperationStatus, String)? {
        let before = storage.state.stacks
        if let condition {
            for operation in command.operations where !(await condition(operation, before)) {
                return (.blockedByPrecondition, "the call's condition returned false")
            }
            return nil
        }
        if let refusal = checkPreconditions(command, condition: nil) { return refusal }
        guard let precondition = defaultAsyncPreconditions[command.operation.kind] else { return nil }
        for operation in command.operations where !(await precondition(operation, before)) {
            return (.blockedByPrecondition, "the default async precondition for \(operation.kind.rawValue) returned false")
        }
        return nil
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

    // MARK: Settle and commit

    /// What a verdict comes to: committed (applied, refused, answered with a dialog, a redirect
    /// that ends here), or a redirect whose target the driver follows.
    @inlinable
    func settle<Output: FlowRunOutput>(
        _ command: consuming FlowCommand<Route>, _ verdict: FlowRulesVerdict<Route>, source: FlowOperationSource,
        chain: [FlowCommand<Route>], generation: Int?, isAsync: Bool = false
    ) -> FlowSettled<Route, Output> where Output.Route == Route {
        switch verdict {
        case .allow(let reason):
            return .done(commit(command, source: source, status: .applied, reason: reason, generation: generation))
        case .refuse(let status, let reason, let dialog, let resume):
            if let dialog {
                return .done(Output(answerHolding(
                    command, status: status, reason: reason, dialog: dialog, resume: resume, source: source,
                    chain: chain, generation: generation, isAsync: isAsync)))
            }
            return .done(commit(command, source: source, status: status, reason: reason, generation: generation))
        case .redirect(let target, let reason, let resume, let location):
            if chain.count + 1 > Self.maximumRedirects {
                // At the `file:line` of the rule whose redirect would have gone one too far.
                let steps = (chain.map(\.summary) + [command.summary, target.summary]).joined(separator: " → ")
                let loop = "\(location.map { "\($0): " } ?? "")redirect loop: more than \(Self.maximumRedirects) redirects: "
                    + "\(steps); make one of these rules allow its target"
                return .done(commit(command, source: source, status: .failed, reason: loop))
            }
            if transactionState != nil {
                // A transaction does not follow it: its result carries the target.
                return .done(Output(refusedInTransaction(
                    command, reason: reason, target: target, resume: resume, source: source, generation: generation)))
            }
            // A resuming redirect holds the navigation the person asked for (the first of a chain).
            let held = resume ? (chain.first ?? copy command) : nil
            let blocked: FlowOperationResult<Route> = commit(
                command, source: source, status: .redirected, reason: reason, generation: generation)
            if let held {
                hold(held, source: source, reason: reason, redirect: target, sequence: blocked.sequence, isAsync: isAsync)
            }
            return .follow(target, blocked)
        }
    }

    /// Commits a decided request: applies it when `status` is `.applied` (`FlowRouterState.apply`),
    /// records it, and tells `didApplyOperation`. One `willChange` before, one `didChange` (by
    /// `store`) after.
    @inlinable
    func commit<Output: FlowRunOutput>(
        _ command: consuming FlowCommand<Route>, source: FlowOperationSource, status: FlowOperationStatus,
        reason: String?, generation decidedBy: Int? = nil, pendingRedirect: FlowCommand<Route>? = nil
    ) -> Output where Output.Route == Route {
        willChange()
        let before = storage.state.stacks
        let applied = status == .applied
        if applied {
            if transactionState == nil { storage.state.reuseEvictedStacks() }
            storage.state.apply(command)
        }
        let generation = decidedBy ?? self.generation
        let experiments = rules?.hook.takeExperimentReads() ?? [:]
        if applied, didApplyOperation == nil, let output = Output.appliedWithoutResult {
            // Without a result to build, the command moves into the history entry.
            store(storage.state.entry(.navigation(command), source: source, status: status, reason: reason,
                             generation: generation, previous: before, experiments: experiments))
            return output
        }
        let entry = storage.state.entry(.navigation(copy command), source: source, status: status, reason: reason,
                               generation: generation, previous: before, experiments: experiments)
        let sequence = entry.sequence
        store(entry)
        if applied { notifyApplied(command) }
        return Output(FlowOperationResult(
            command: command, status: status, reason: reason, sequence: sequence,
            generation: generation, pendingRedirect: pendingRedirect))
    }

    /// Commits a dialog request, as `commit` does a navigation: one `willChange`, the state's
    /// dialog change (`change` returns whether it changed anything: recorded `.applied`, else
    /// `.ignored`), the entry kept by `store`. A request refused before it changed anything
    /// passes its status as `refused` and no change. Returns whether it applied.
    @discardableResult
    func commitDialog(
        _ action: FlowDialogChange.Action, dialog: String?, source: FlowOperationSource,
        refused: FlowOperationStatus? = nil, reason: String? = nil,
        change: (inout FlowRouterState<Route, Dialog>) -> Bool = { _ in false }
    ) -> Bool {
        willChange()
        let status = refused ?? (change(&storage.state) ? .applied : .ignored)
        let entry = storage.state.entry(
            .dialog(storage.state.dialogChange(action, dialog: dialog)), source: source, status: status, reason: reason,
            generation: generation, previous: storage.state.stacks)
        store(entry)
        if storage.state.pendingNavigation?.dialog != nil { dropNavigationHeldByDismissedDialog() }
        return status == .applied
    }

    /// Keeps an entry: in the running transaction, or in the history; then tells the observers.
    /// The one place that records. The entry is consumed, so the common case (no observer)
    /// moves it into the history without a copy.
    @inlinable
    func store(_ entry: consuming FlowHistoryEntry<Route>) {
        if let transaction = transactionState {
            transaction.entries.append(entry)
        } else if changeObservers.isEmpty {
            storage.state.log.append(entry)
        } else {
            storage.state.log.append(copy entry)
            didChange(.recorded(entry))
        }
    }

    /// Tells `didApplyOperation` of an applied command (a transaction tells it on commit).
    @usableFromInline
    func notifyApplied(_ command: FlowCommand<Route>) {
        guard let didApplyOperation else { return }
        if let transaction = transactionState {
            transaction.applied.append((command, storage.state.stacks))
            return
        }
        for operation in command.operations {
            didApplyOperation(operation, storage.state.stacks)
        }
    }

    /// A stable, readable id for a dialog: its `id` when `Identifiable`, else its description.
    func dialogKey(_ dialog: Dialog?) -> String? {
        FlowRouterState<Route, Dialog>.dialogKey(dialog)
    }
}

/// What a settled request comes to: its output, or a redirect to follow.
@usableFromInline
enum FlowSettled<Route: Hashable, Output> {
    /// The request's final output.
    case done(Output)
    /// The request was recorded as redirected (`blocked`); follow `target`. Indirect: the
    /// common outcome, `done`, then moves no large payload.
    indirect case follow(FlowCommand<Route>, FlowOperationResult<Route>)
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

/// What the router's `run` hands back: a navigation's full result, or only whether it applied.
///
/// The actions that return a `Bool` (`push`, `pop`, ...) need no result. Building one costs a
/// copy of the command (the history keeps the other) and destroying the result again, both
/// through the command's value witnesses; with `FlowAppliedFlag` an applied command moves into
/// the history instead. `run` is generic over this, so each caller gets its own specialized copy.
@usableFromInline
protocol FlowRunOutput {
    associatedtype Route: Hashable
    /// The output for a request that ended with `result` (refused, blocked, redirected, ...).
    init(_ result: consuming FlowOperationResult<Route>)
    /// The output of an applied command when no result is needed (the command then moves into
    /// the history); `nil` for outputs that are the result itself.
    static var appliedWithoutResult: Self? { get }
}

extension FlowOperationResult: FlowRunOutput {
    /// The result itself.
    @inlinable
    init(_ result: consuming FlowOperationResult<Route>) {
        self = result
    }

    /// A result is always built.
    @inlinable
    static var appliedWithoutResult: FlowOperationResult<Route>? { nil }
}

/// Whether a navigation applied, for the actions that return a `Bool`.
@usableFromInline
struct FlowAppliedFlag<Route: Hashable>: FlowRunOutput {
    /// Whether the operation changed the state.
    @usableFromInline let isApplied: Bool

    @inlinable
    init(isApplied: Bool) {
        self.isApplied = isApplied
    }

    /// Whether `result` applied.
    @inlinable
    init(_ result: consuming FlowOperationResult<Route>) {
        isApplied = result.isApplied
    }

    /// Applied.
    @inlinable
    static var appliedWithoutResult: FlowAppliedFlag<Route>? { FlowAppliedFlag(isApplied: true) }
}
