import Foundation

// The pipeline's last two steps (see `FlowRouter+Pipeline.swift`): settle the checks' verdict,
// and commit it (the one place that changes the state for a navigation and records it).
extension FlowRouter {
    /// What the checks' verdict comes to: committed (applied, refused, answered with a dialog, a
    /// redirect that ends here), or a redirect whose target the driver follows.
    @inlinable @inline(__always)
    func settle<Output: FlowRunOutput>(
        _ command: consuming FlowCommand<Route>, _ verdict: FlowRulesVerdict<Route>, _ navigation: FlowNavigation,
        chain: [FlowCommand<Route>]
    ) -> FlowSettled<Route, Output> where Output.Route == Route {
        // The common answer, allow, goes straight to the commit.
        if case .allow(let reason) = verdict {
            return .done(commit(command, source: navigation.source, status: .applied, reason: reason, generation: navigation.decidedBy))
        }
        return settleRefusal(command, verdict, navigation, chain: chain)
    }

    /// `settle` for a verdict that is not `allow`.
    @inlinable
    func settleRefusal<Output: FlowRunOutput>(
        _ command: consuming FlowCommand<Route>, _ verdict: FlowRulesVerdict<Route>, _ navigation: FlowNavigation,
        chain: [FlowCommand<Route>]
    ) -> FlowSettled<Route, Output> where Output.Route == Route {
        let source = navigation.source, generation = navigation.decidedBy
        switch verdict {
        case .allow(let reason):
            return .done(commit(command, source: source, status: .applied, reason: reason, generation: generation))
        case .refuse(let status, let reason, let dialog, let resume):
            if let dialog {
                return .done(Output(answerHolding(
                    command, status: status, reason: reason, dialog: dialog, resume: resume, source: source,
                    chain: chain, generation: generation, isAsync: navigation.isAsync)))
            }
            return .done(commit(command, source: source, status: status, reason: reason, generation: generation))
        case .redirect(let target, let reason, let resume, let location):
            if chain.count + 1 > Self.maximumRedirects {
                // At the `file:line` of the rule whose redirect would have gone one too far.
                let steps = (chain.map { $0.summary } + [command.summary, target.summary]).joined(separator: " → ")
                let loop = "\(location.map { "\($0): " } ?? "")redirect loop: more than \(Self.maximumRedirects) redirects: "
                    + "\(steps); make one of these rules allow its target"
                return .done(commit(command, source: source, status: .failed, reason: loop, generation: generation))
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
                hold(held, source: source, reason: reason, redirect: target, sequence: blocked.sequence,
                     isAsync: navigation.isAsync)
            }
            return .follow(target, blocked)
        }
    }

    /// A redirected request's result once its target ran with `followed`; a resuming redirect's
    /// held navigation remembers the stack the target presented (`noteHeldRedirect`).
    @usableFromInline
    func following(_ blocked: FlowOperationResult<Route>, _ followed: FlowOperationResult<Route>) -> FlowOperationResult<Route> {
        noteHeldRedirect(blocked, followed)
        return blocked.following(followed)
    }

    /// Commits a decided request: applies it when `status` is `.applied` (`FlowRouterState.apply`),
    /// records it, and tells `didApplyOperation`. One `willChange` before, one `didChange` (by
    /// `store`) after.
    @inlinable
    func commit<Output: FlowRunOutput>(
        _ command: consuming FlowCommand<Route>, source: FlowOperationSource, status: FlowOperationStatus,
        reason: String?, generation decidedBy: Int? = nil, pendingRedirect: FlowCommand<Route>? = nil
    ) -> Output where Output.Route == Route {
        let experiments = rules?.hook.takeExperimentReads() ?? [:]
        willChange()
        let before = storage.state.stacks
        let applied = status == .applied
        if applied {
            if transactionState == nil { storage.state.reuseEvictedStacks() }
            storage.state.apply(command)
        }
        let generation = decidedBy ?? self.generation
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
        if storage.state.pendingLink?.lastDialog != nil { deepLinks.dropLinkHeldByDismissedDialog() }
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
