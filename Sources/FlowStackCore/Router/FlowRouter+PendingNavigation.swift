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

    /// Runs the held navigation again now, if the rules allow it: the gate its redirect opened
    /// (the stack it presented, the dialog it showed) is dismissed if it is still shown, then the
    /// navigation runs with source `.resume`, both as one transaction. Refused again by the same
    /// gate, nothing changes and it stays held (a gate the person closed is shown again); refused
    /// by another gate, the first is dismissed, the new one shown, and it stays held when that
    /// redirect holds; no longer possible (its stack or route is gone), it is dropped. The result
    /// says which. A navigation held from an async one runs here synchronously: its async hosts
    /// fail closed (use `resumePendingNavigationAsync()`).
    @discardableResult
    public func resumePendingNavigation() -> FlowResumeResult<Route> {
        resumeHeldNavigation(explicit: true)
    }

    /// Runs the held navigation again in a turn of the async queue (after the navigations
    /// waiting before it), through the async pipeline: its preconditions and rules may call
    /// async hosts. Otherwise as `resumePendingNavigation()`.
    @discardableResult
    public func resumePendingNavigationAsync() async -> FlowResumeResult<Route> {
        await resumeHeldNavigationAsync(explicit: true)
    }

    /// The automatic resume a fact change started for a navigation held from an async one (it
    /// runs in a turn of the async queue), or `nil`. Await its value to know it is done.
    public var automaticResume: Task<Void, Never>? { storage.automaticResume }

    /// Retries the held navigation synchronously; `explicit` when code asked (a closed gate is
    /// shown again), not on a fact change.
    func resumeHeldNavigation(explicit: Bool) -> FlowResumeResult<Route> {
        let pending: FlowPendingNavigation<Route>
        switch heldNavigationToResume() {
        case .refused(let result): return result
        case .retry(let held): pending = held
        }
        let attempt = retryHeld(gate: pending.gate, explicit: explicit, source: .resume) { router in
            router.perform(pending.command, source: .resume)
        }
        return settleResume(attempt, pending: pending)
    }

    /// Retries the held navigation in a turn of the async queue, through the async pipeline;
    /// `explicit` as for `resumeHeldNavigation(explicit:)`.
    func resumeHeldNavigationAsync(explicit: Bool) async -> FlowResumeResult<Route> {
        let ownsTurn = await serialQueue.enter()
        defer { if ownsTurn { serialQueue.leave() } }
        let pending: FlowPendingNavigation<Route>
        switch heldNavigationToResume() {
        case .refused(let result): return result
        case .retry(let held): pending = held
        }
        let attempt = await retryHeldAsync(gate: pending.gate, explicit: explicit, source: .resume, command: pending.command)
        return settleResume(attempt, pending: pending)
    }

    /// What a resume starts from: the held navigation to retry, or the result that refuses the
    /// resume.
    private enum ResumeStart {
        case retry(FlowPendingNavigation<Route>)
        case refused(FlowResumeResult<Route>)
    }

    /// The held navigation to retry now, once an expired one is dropped; refused when none is
    /// held or the router is busy (a rule is deciding or a transaction runs).
    private func heldNavigationToResume() -> ResumeStart {
        expirePendingNavigationIfNeeded()
        guard let pending = storage.state.pendingNavigation else {
            return .refused(FlowResumeResult(status: .nothingHeld, reason: "no navigation is held", navigation: nil, transaction: nil))
        }
        guard !isBusyForRetry else {
            return .refused(FlowResumeResult(
                status: .busy,
                reason: "the router is busy (a rule is deciding or a transaction runs); resume after it",
                navigation: pending, transaction: nil))
        }
        return .retry(pending)
    }

    /// What a retry of `pending` leaves held, as a resume result.
    private func settleResume(_ attempt: FlowHeldAttempt<Route>, pending: FlowPendingNavigation<Route>) -> FlowResumeResult<Route> {
        // A navigation held meanwhile (by the retry's own redirect, or another request) stays.
        let stillSame = storage.state.pendingNavigation == pending
        let transaction = attempt.transaction
        switch attempt.outcome {
        case .ran:
            if stillSame { storage.state.pendingNavigation = nil }
            return FlowResumeResult(status: .resumed, reason: nil, navigation: pending, transaction: transaction)
        case .sameGate(let why), .gateRefused(let why):
            if stillSame {
                storage.state.pendingNavigation?.reason = transaction.failure?.reason ?? why
                storage.state.pendingNavigation?.attempts += 1
            }
            return FlowResumeResult(status: .stillHeld, reason: why, navigation: pending, transaction: transaction)
        case .nextGate(let gate, let holds, let why):
            guard stillSame else {
                return FlowResumeResult(status: .stillHeld, reason: why, navigation: pending, transaction: transaction)
            }
            guard holds else {
                storage.state.pendingNavigation = nil
                return FlowResumeResult(
                    status: .dropped,
                    reason: "its next gate does not hold it (the redirect has no resume = true): \(why)",
                    navigation: pending, transaction: transaction)
            }
            storage.state.pendingNavigation?.gate = gate
            storage.state.pendingNavigation?.reason = transaction.failure?.reason ?? why
            storage.state.pendingNavigation?.attempts += 1
            return FlowResumeResult(status: .stillHeld, reason: why, navigation: pending, transaction: transaction)
        case .cannotRun(let why):
            if stillSame { storage.state.pendingNavigation = nil }
            return FlowResumeResult(
                status: .dropped, reason: "it can no longer run: \(why)", navigation: pending, transaction: transaction)
        }
    }

    /// Drops the held navigation, if any, and returns it.
    @discardableResult
    public func cancelPendingNavigation() -> FlowPendingNavigation<Route>? {
        let pending = storage.state.pendingNavigation
        storage.state.pendingNavigation = nil
        return pending
    }

    /// Tells the router that facts its rules read have changed: retries the held deep link
    /// (`deepLinks.factsDidChange()`), then the held navigation. A navigation held from an async
    /// one resumes in a turn of the async queue, in order with the requests waiting there
    /// (`automaticResume` is that task); any other resumes at once. The Lua engine calls it
    /// whenever a fact changes; Swift apps call it when the state their preconditions read
    /// changes (the person signed in).
    public func factsDidChange() {
        factsDidChange(plan: [])
    }

    /// Tells the router that facts changed and what the facts rules (`flow.on_facts_changed`)
    /// ask of the screens on show: `plan` runs first, as one transaction with source `.facts`
    /// (checked by the rules like any other; refused, none of it applies and the refusal is
    /// recorded); then, only if it applied (or was empty), `dialogs` are shown through the
    /// dialog rules (`dialog.source == "facts"`); then the held link and navigation are retried
    /// as `factsDidChange()` does. Returns the plan's transaction, or `nil` for an empty plan.
    @discardableResult
    public func factsDidChange(
        plan: [FlowCommand<Route>], dialogs: [FlowDialogRedirect] = []
    ) -> FlowTransactionResult<Route>? {
        var applied: FlowTransactionResult<Route>?
        if !plan.isEmpty {
            applied = transaction { router in
                for command in plan { router.perform(command, source: .facts) }
            }
        }
        if applied?.isCommitted ?? true {
            for dialog in dialogs { _ = showRuleDialog(dialog, source: .facts) }
        }
        retryHeldAfterFactsChange()
        return applied
    }

    /// The visible dialog's id (its `id` when `Identifiable`, else its description), or `nil`.
    package var visibleDialogID: String? { dialogKey(storage.state.globalDialog) }

    private func retryHeldAfterFactsChange() {
        deepLinks.factsDidChange()
        guard let pending = storage.state.pendingNavigation else { return }
        if pending.isAsync {
            let previous = storage.automaticResume
            storage.automaticResume = Task { @MainActor [weak self] in
                await previous?.value
                _ = await self?.resumeHeldNavigationAsync(explicit: false)
            }
        } else {
            _ = resumeHeldNavigation(explicit: false)
        }
    }

    /// Holds `command`, refused by a resuming redirect or dialog answer (`gate`): the newest
    /// replaces an older one, and a held deep link (one request waits at most, link or navigation).
    func hold(
        _ command: FlowCommand<Route>, source: FlowOperationSource, reason: String, gate: FlowHeldGate<Route>,
        sequence: Int?, isAsync: Bool
    ) {
        storage.state.pendingNavigation = FlowPendingNavigation(
            command: command, source: source, heldAt: deepLinks.now(), sequence: sequence, redirect: gate.redirect,
            dialog: gate.dialog, isAsync: isAsync, reason: reason)
        storage.state.pendingNavigation?.dialogPolicy = gate.policy
        deepLinks.dropHeldLink(forNewerNavigation: command.summary)
    }

    /// Holds `command`, refused by a resuming navigation redirect to `redirect`.
    @usableFromInline
    func hold(
        _ command: FlowCommand<Route>, source: FlowOperationSource, reason: String, redirect: FlowCommand<Route>,
        sequence: Int?, isAsync: Bool
    ) {
        hold(command, source: source, reason: reason, gate: FlowHeldGate(redirect: redirect), sequence: sequence, isAsync: isAsync)
    }

    /// A navigation a rule answered with a dialog (`flow.redirect("dialog", ...)`), shown; with
    /// `resume`, the navigation asked for (the first of a chain) is held while the dialog shows.
    @usableFromInline
    func answerHolding(
        _ command: FlowCommand<Route>, status: FlowOperationStatus, reason: String?, dialog: FlowDialogRedirect,
        resume: Bool, source: FlowOperationSource, chain: [FlowCommand<Route>], generation: Int?, isAsync: Bool
    ) -> FlowOperationResult<Route> {
        var answered = answerWithDialog(command, status: status, reason: reason, dialog: dialog, source: source, generation: generation)
        answered.redirectHolds = resume
        if resume, transactionState == nil, answered.dialogRedirect?.applied == true {
            hold(chain.first ?? command, source: source, reason: answered.reason ?? status.phrase,
                 gate: FlowHeldGate(dialog: dialog.dialog, policy: dialog.policy), sequence: answered.sequence, isAsync: isAsync)
        }
        return answered
    }

    /// A redirect inside a transaction: refused, not followed; the result carries the target and
    /// whether it holds.
    @usableFromInline
    func refusedInTransaction(
        _ command: FlowCommand<Route>, reason: String, target: FlowCommand<Route>, resume: Bool,
        source: FlowOperationSource, generation: Int?
    ) -> FlowOperationResult<Route> {
        var refused: FlowOperationResult<Route> = commit(
            command, source: source, status: .redirected, reason: reason, generation: generation, pendingRedirect: target)
        refused.redirectHolds = resume
        return refused
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

    /// A dialog changed: a navigation held by a dialog that is no longer visible nor queued is
    /// dropped (the person dismissed it without the rules allowing the navigation), recorded in
    /// the history as cancelled. A held link is dropped the same way
    /// (`FlowDeepLinkCenter.dropLinkHeldByDismissedDialog()`).
    func dropNavigationHeldByDismissedDialog() {
        guard let pending = storage.state.pendingNavigation, let dialog = pending.dialog,
              isDismissedGate(dialog) else { return }
        storage.state.pendingNavigation = nil
        let _: FlowOperationResult<Route> = commit(
            pending.command, source: .resume, status: .cancelled,
            reason: "dropped: the dialog '\(dialog.id)' was dismissed before the rules allowed it")
    }

    private func expirePendingNavigationIfNeeded() {
        guard let pending = storage.state.pendingNavigation,
              pending.isExpired(at: deepLinks.now(), timeout: pendingNavigationTimeout) else { return }
        storage.state.pendingNavigation = nil
    }
}
