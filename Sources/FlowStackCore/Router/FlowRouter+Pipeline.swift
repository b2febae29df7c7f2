import Foundation

// The one pipeline every navigation request runs through, sync or async:
//
//   check    refused while busy (a rule deciding, a failed transaction step: not recorded);
//            validate against the state; then, unless the person already did it (`.user`), the
//            tab guard or the preconditions and `guardOperation`, then the rules; validated
//            again when the router changed while they ran. The steps are written once:
//            `startChecks`, `preconditionsChecked`, `rulesDecided` (`FlowNavigation` carries
//            what they found, `FlowNavigationNeed` says what the next step waits for)
//   settle   allowed: commit applied; refused: commit refused (or answer with a dialog);
//            redirected: commit redirected, then the driver follows the target
//   commit   `FlowRouterState.apply`, the history entry (`store`, the one place that records),
//            `didApplyOperation`; one willChange/didChange pair per commit (`commitDialog`
//            for a dialog request)
//
// The drivers `run` (sync) and `runAsync` (the async queue) are the same loop over those steps.
// They differ only in how they get what a step waits for: the preconditions' answer
// (`checkPreconditions`, or `checkPreconditionsAsync` awaiting async ones), the rules' decision
// (`decideNow`, or `decideLater` awaiting `decideAsync`), and a redirect's target run (called or
// awaited).
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
        let ownsTurn = await serialQueue.enter()
        let result: FlowOperationResult<Route>
        if ownsTurn, Task.isCancelled {
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

    /// The synchronous driver: the pipeline's steps, answering what they wait for at once.
    @inlinable
    func run<Output: FlowRunOutput>(
        _ command: consuming FlowCommand<Route>,
        source: FlowOperationSource,
        condition: Precondition?,
        chain: [FlowCommand<Route>]
    ) -> Output where Output.Route == Route {
        var navigation = FlowNavigation(source: source, isAsync: false, hasCondition: condition != nil)
        var need = startChecks(command, &navigation)
        while true {
            switch consume need {
            case .refused(let refusal):
                return Output(refusal)
            case .preconditions:
                need = preconditionsChecked(command, &navigation, checkPreconditions(command, condition: condition))
            case .decision(let link):
                need = rulesDecided(command, &navigation, decideNow(command, navigation, chain: chain, link: link), link: link)
            case .settle(let verdict):
                let settled: FlowSettled<Route, Output> = settle(command, verdict, navigation, chain: chain)
                switch consume settled {
                case .done(let output):
                    return output
                case .follow(let target, let blocked):
                    let followed: FlowOperationResult<Route> = run(
                        target, source: source, condition: nil, chain: chain + [blocked.command])
                    return Output(following(blocked, followed))
                }
            }
        }
    }

    /// The async driver: the steps of `run`, awaiting the preconditions, the rules' decision and
    /// a redirect's target, which may suspend.
    func runAsync(
        _ command: FlowCommand<Route>,
        source: FlowOperationSource,
        condition: AsyncPrecondition?,
        chain: [FlowCommand<Route>]
    ) async -> FlowOperationResult<Route> {
        var navigation = FlowNavigation(source: source, isAsync: true, hasCondition: condition != nil)
        var need = startChecks(command, &navigation)
        while true {
            switch consume need {
            case .refused(let refusal):
                return refusal
            case .preconditions:
                need = preconditionsChecked(command, &navigation, await checkPreconditionsAsync(command, condition: condition))
            case .decision(let link):
                need = rulesDecided(command, &navigation, await decideLater(command, navigation, chain: chain, link: link), link: link)
            case .settle(let verdict):
                let settled: FlowSettled<Route, FlowOperationResult<Route>> = settle(command, verdict, navigation, chain: chain)
                switch settled {
                case .done(let result):
                    return result
                case .follow(let target, let blocked):
                    let followed = await runAsync(target, source: source, condition: nil, chain: chain + [blocked.command])
                    return following(blocked, followed)
                }
            }
        }
    }

    // MARK: The steps, written once

    /// The first step: refused while busy (not recorded), or validated; a person's request
    /// (`.user`) is then settled, a tab selection meets its guard, any other request its
    /// preconditions.
    @inlinable @inline(__always)
    func startChecks(_ command: FlowCommand<Route>, _ navigation: inout FlowNavigation) -> FlowNavigationNeed<Route> {
        if isDeciding || decidingTask != nil || transactionState != nil,
           let refusal = refusedWhileBusy(command) ?? refusedOutsideAsyncTransaction(command) {
            return .refused(refusal)
        }
        if let refusal = storage.state.validate(command) { return .settle(.refuse(refusal.0, reason: refusal.1)) }
        if navigation.source == .user { return .settle(.allow(reason: nil)) }
        navigation.revision = storage.revision
        // A tab selection has its own Swift check (`FlowOperation` cannot name it).
        guard command.tab == nil else {
            if let refusal = checkTabSelection(command) { return .settle(.refuse(refusal.0, reason: refusal.1)) }
            return askRules(command, &navigation)
        }
        return .preconditions
    }

    /// After the preconditions (`refusal` is theirs, or `nil`): `guardOperation`, then the rules.
    @inlinable @inline(__always)
    func preconditionsChecked(
        _ command: FlowCommand<Route>, _ navigation: inout FlowNavigation, _ refusal: (FlowOperationStatus, String)?
    ) -> FlowNavigationNeed<Route> {
        if let refusal = refusal ?? checkGuard(command) { return .settle(.refuse(refusal.0, reason: refusal.1)) }
        return askRules(command, &navigation)
    }

    /// The Swift checks passed: the rules decide, if any are installed.
    @inlinable @inline(__always)
    func askRules(_ command: FlowCommand<Route>, _ navigation: inout FlowNavigation) -> FlowNavigationNeed<Route> {
        guard let link = rules else { return checksEnded(command, &navigation, .allow(reason: nil)) }
        navigation.decidedBy = link.hook.generation
        return .decision(link)
    }

    /// The rules (`link`) decided `decision`.
    @inlinable @inline(__always)
    func rulesDecided(
        _ command: FlowCommand<Route>, _ navigation: inout FlowNavigation, _ decision: FlowRuleDecision,
        link: FlowRulesLink<Route>
    ) -> FlowNavigationNeed<Route> {
        checksEnded(command, &navigation, verdict(for: decision, link: link))
    }

    /// The last check: a request the checks allowed is validated again when the router changed
    /// while they ran (an async check suspended, or a check navigated), then settled.
    @inlinable @inline(__always)
    func checksEnded(
        _ command: FlowCommand<Route>, _ navigation: inout FlowNavigation, _ verdict: FlowRulesVerdict<Route>
    ) -> FlowNavigationNeed<Route> {
        if storage.revision != navigation.revision, case .allow = verdict, let refusal = storage.state.validate(command) {
            navigation.decidedBy = nil
            return .settle(.refuse(refusal.0, reason: refusal.1))
        }
        return .settle(verdict)
    }

    // MARK: What the steps ask

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

    /// The refusal of a request made from outside an async transaction (a held navigation
    /// resuming through the async queue) while it runs; `nil` when the request may run. Only a
    /// synchronous request can meet it: an async one waits for the transaction's turn to end.
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

    /// Whether the router cannot retry a held request now: a rule is deciding (a synchronous one,
    /// or an asynchronous one suspended) or a transaction runs.
    var isBusyForRetry: Bool {
        isDeciding || decidingTask != nil || transactionState != nil
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
        return Self.preconditionRefusal(oneOff: condition != nil, kind: command.shape.kind, isAsync: false)
    }

    /// `checkPreconditions` for a request of the async queue, awaiting the async checks: the
    /// one-off async `condition`, or else the default sync then async preconditions for the
    /// command's kind; the refusal, or `nil`.
    func checkPreconditionsAsync(_ command: FlowCommand<Route>, condition: AsyncPrecondition?) async -> (FlowOperationStatus, String)? {
        if condition == nil, let refusal = checkPreconditions(command, condition: nil) { return refusal }
        guard let check = condition ?? defaultAsyncPreconditions[command.operation.kind] else { return nil }
        let before = storage.state.stacks
        for operation in command.operations where !(await check(operation, before)) {
            return Self.preconditionRefusal(oneOff: condition != nil, kind: command.shape.kind, isAsync: true)
        }
        return nil
    }

    /// The refusal of a precondition that returned false: the call's one-off `condition`, or the
    /// default (async) precondition for `kind`.
    @usableFromInline
    static func preconditionRefusal(oneOff: Bool, kind: FlowOperationKind, isAsync: Bool) -> (FlowOperationStatus, String) {
        if oneOff { return (.blockedByPrecondition, "the call's condition returned false") }
        return (.blockedByPrecondition, "the default \(isAsync ? "async " : "")precondition for \(kind.rawValue) returned false")
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
}

/// A navigation request on its way through the pipeline's checks: who asked, and what the
/// checks noted on the way (plain values: nothing to retain or release per request).
@usableFromInline
struct FlowNavigation {
    /// Who asked.
    @usableFromInline let source: FlowOperationSource
    /// Whether it runs through the async queue (its rules may suspend; held, it resumes there).
    @usableFromInline let isAsync: Bool
    /// Whether a one-off condition replaced the default preconditions.
    @usableFromInline let hasCondition: Bool
    /// The generation of the rules that decided, or `nil` for the rules in force at the commit.
    @usableFromInline var decidedBy: Int?
    /// The router's `revision` when the checks began.
    @usableFromInline var revision = 0

    @inlinable
    init(source: FlowOperationSource, isAsync: Bool, hasCondition: Bool) {
        self.source = source
        self.isAsync = isAsync
        self.hasCondition = hasCondition
    }
}

/// What a navigation's next step waits for from its driver.
@usableFromInline
enum FlowNavigationNeed<Route: Hashable> {
    /// Nothing: it was refused while the router was busy, and is not recorded.
    indirect case refused(FlowOperationResult<Route>)
    /// The preconditions' answer (`preconditionsChecked`).
    case preconditions
    /// The decision of these rules (`rulesDecided`).
    case decision(FlowRulesLink<Route>)
    /// Nothing: the checks are done; settle what they decided.
    case settle(FlowRulesVerdict<Route>)
}
