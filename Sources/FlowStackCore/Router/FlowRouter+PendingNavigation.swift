import Foundation

// Held navigations: a rule's redirect with `resume` holds the navigation it refused (in the
// state, `pendingNavigation`); a facts change or `resumePendingNavigation()` runs it again,
// through the pipeline, as one transaction with the dismissal of the redirect's presentation.
extension FlowRouter {
    /// The navigation held by a resuming redirect, or `nil`; drops it first when it has been
    /// held `pendingNavigationTimeout` seconds.
    public var pendingNavigation: FlowPendingNavigation<Route>? {
        expirePendingNavigationIfNeeded()
        return storage.state.pendingNavigation
    }

    /// Runs the held navigation again now, if the rules allow it: the presentation its redirect
    /// opened is dismissed if it is still shown, then the navigation runs with source `.resume`,
    /// both as one transaction. Refused again, nothing changes and it stays held; no longer
    /// possible (its stack or route is gone), it is dropped. The result says which.
    @discardableResult
    public func resumePendingNavigation() -> FlowResumeResult<Route> {
        expirePendingNavigationIfNeeded()
        guard let pending = storage.state.pendingNavigation else {
            return FlowResumeResult(status: .nothingHeld, reason: "no navigation is held", navigation: nil, transaction: nil)
        }
        if isDeciding || decidingTask != nil || transactionState != nil {
            return FlowResumeResult(
                status: .busy,
                reason: "the router is busy (a rule is deciding or a transaction runs); resume after it",
                navigation: pending, transaction: nil)
        }
        let transaction = transaction { router in
            if let id = pending.presentedStackID, router.stacks.dropFirst().contains(where: { $0.id == id }) {
                router.perform(FlowCommand(.dismiss(target: .stack(id))), source: .resume)
            }
            router.perform(pending.command, source: .resume)
        }
        let stillSame = storage.state.pendingNavigation == pending
        if transaction.isCommitted {
            if stillSame { storage.state.pendingNavigation = nil }
            return FlowResumeResult(status: .resumed, reason: nil, navigation: pending, transaction: transaction)
        }
        let why = transaction.reason ?? "a step failed"
        if let failure = transaction.failure, failure.status.isBlocked {
            if stillSame {
                storage.state.pendingNavigation?.reason = failure.reason ?? why
                storage.state.pendingNavigation?.attempts += 1
            }
            return FlowResumeResult(status: .stillHeld, reason: why, navigation: pending, transaction: transaction)
        }
        if stillSame { storage.state.pendingNavigation = nil }
        return FlowResumeResult(
            status: .dropped, reason: "it can no longer run: \(why)", navigation: pending, transaction: transaction)
    }

    /// Runs the held navigation again in a turn of the async queue (after the navigations
    /// waiting before it); see `resumePendingNavigation()`. Its decisions are synchronous.
    @discardableResult
    public func resumePendingNavigationAsync() async -> FlowResumeResult<Route> {
        let ownsTurn = await serialQueue.enter()
        let result = resumePendingNavigation()
        if ownsTurn { serialQueue.leave() }
        return result
    }

    /// Drops the held navigation, if any, and returns it.
    @discardableResult
    public func cancelPendingNavigation() -> FlowPendingNavigation<Route>? {
        let pending = storage.state.pendingNavigation
        storage.state.pendingNavigation = nil
        return pending
    }

    /// Tells the router that facts its rules read have changed: retries the held deep link
    /// (`deepLinks.factsDidChange()`), then the held navigation (`resumePendingNavigation()`).
    /// The Lua engine calls it whenever a fact changes; Swift apps call it when the state their
    /// preconditions read changes (the person signed in).
    public func factsDidChange() {
        deepLinks.factsDidChange()
        if storage.state.pendingNavigation != nil { resumePendingNavigation() }
    }

    /// Holds `command`, refused by a resuming redirect to `redirect` (the newest replaces an
    /// older one, and a held deep link: one request waits at most, link or navigation).
    @usableFromInline
    func hold(
        _ command: FlowCommand<Route>, source: FlowOperationSource, reason: String, redirect: FlowCommand<Route>,
        sequence: Int?
    ) {
        storage.state.pendingNavigation = FlowPendingNavigation(
            command: command, source: source, heldAt: deepLinks.now(), sequence: sequence, redirect: redirect,
            reason: reason)
        deepLinks.dropHeldLink(forNewerNavigation: command.summary)
    }

    /// After a redirect was followed: when it was a resuming one that presented a stack, the
    /// held navigation remembers that stack (dismissed again when it resumes).
    @usableFromInline
    func noteHeldRedirect(_ blocked: FlowOperationResult<Route>, _ followed: FlowOperationResult<Route>) {
        guard let sequence = blocked.sequence, storage.state.pendingNavigation?.sequence == sequence,
              followed.isApplied, case .present = followed.command.operation,
              let presented = storage.state.stacks.last else { return }
        storage.state.pendingNavigation?.presentedStackID = presented.id
    }

    private func expirePendingNavigationIfNeeded() {
        guard let pending = storage.state.pendingNavigation,
              pending.isExpired(at: deepLinks.now(), timeout: pendingNavigationTimeout) else { return }
        storage.state.pendingNavigation = nil
    }
}
