import Foundation

// One held request, one behaviour: a held navigation (`FlowPendingNavigation`) and a held link
// (`FlowPendingLink`) are retried by the same code, `retryHeld` (sync) or `retryHeldAsync`.
//
//   retry     one transaction: dismiss the gate (the stack its redirect presented, the dialog
//             it showed) if still shown, then run the request
//   settle    allowed: it ran. Refused by the same gate, or with no redirect: nothing changes
//             (an explicit retry shows a gate the person closed again). Refused by another gate
//             (login, then the paywall): the first gate is dismissed and the new one shown, in
//             one transaction. No longer possible: the caller drops it.
//
// The contract's table (docs/lua-surface.md, "One held request") says the same per case.

/// The gate of a held request: the redirect that answered its refusal, and what it showed.
struct FlowHeldGate<Route: Hashable>: Equatable {
    /// The navigation redirect (the sign-in sheet), or `nil` for a dialog gate.
    var redirect: FlowCommand<Route>?
    /// The dialog a rule answered with, or `nil`.
    var dialog: FlowDialogValue?
    /// The policy the dialog is shown with.
    var policy: FlowDialogPolicy = .replace
    /// The stack the redirect presented, if it presented one.
    var presentedStackID: UUID?

    /// A navigation redirect's gate.
    init(redirect: FlowCommand<Route>?, presentedStackID: UUID? = nil) {
        self.redirect = redirect
        self.presentedStackID = presentedStackID
    }

    /// A dialog's gate.
    init(dialog: FlowDialogValue, policy: FlowDialogPolicy = .replace) {
        self.dialog = dialog
        self.policy = policy
    }

    /// Whether `other` asks for the same gate (the same redirect, or the same dialog).
    func isSame(as other: FlowHeldGate<Route>?) -> Bool {
        guard let other else { return false }
        return redirect == other.redirect && dialog == other.dialog
    }
}

/// What a retry of a held request came to.
enum FlowHeldOutcome<Route: Hashable> {
    /// Allowed: its gate was dismissed and it ran.
    case ran
    /// Refused by its gate again, or with no redirect: it stays held as it was.
    case sameGate(reason: String)
    /// Refused by another gate: the first one was dismissed and `gate` shown; `holds` is
    /// whether that redirect asked to hold the request (`{ resume = true }`).
    case nextGate(FlowHeldGate<Route>, holds: Bool, reason: String)
    /// Refused by another gate that could not be shown: nothing changed, it stays held.
    case gateRefused(reason: String)
    /// It can no longer run (its stack or route is gone, a step failed).
    case cannotRun(reason: String)
}

/// A retry of a held request: the transaction that ran it, what it came to, and the new gate's
/// redirect or dialog when one was shown.
struct FlowHeldAttempt<Route: Hashable> {
    let transaction: FlowTransactionResult<Route>
    let outcome: FlowHeldOutcome<Route>
    var redirect: FlowOperationResult<Route>?
    var dialog: FlowDialogRedirectResult?
}

extension FlowRouter {
    /// Retries a held request: one transaction that dismisses `gate` if it is still shown, then
    /// runs `steps`; then settles what the rules said (see the file's header). `explicit` is a
    /// retry asked for by code (`resumePendingNavigation()`, a link being opened), which shows
    /// the same gate again when the person closed it; a fact change does not.
    func retryHeld(
        gate: FlowHeldGate<Route>?, explicit: Bool, source: FlowOperationSource, steps: (FlowRouter) -> Void
    ) -> FlowHeldAttempt<Route> {
        let transaction = transaction { router in
            router.dismissGate(gate, source: source)
            steps(router)
        }
        return settleHeld(transaction, gate: gate, explicit: explicit, source: source)
    }

    /// `retryHeld` for a navigation asked for through the async queue: its steps run through
    /// the async pipeline, so its rules may call async hosts. Call it in a turn of the queue.
    func retryHeldAsync(
        gate: FlowHeldGate<Route>?, explicit: Bool, source: FlowOperationSource, command: FlowCommand<Route>
    ) async -> FlowHeldAttempt<Route> {
        let transaction = await transactionAsync { router in
            router.dismissGate(gate, source: source)
            let result = await router.runAsync(command, source: source, condition: nil, chain: [])
            router.transactionState?.note(result)
        }
        return settleHeld(transaction, gate: gate, explicit: explicit, source: source)
    }

    /// Dismisses what `gate` shows, if it is still shown: the stack its redirect presented, the
    /// dialog it answered with.
    func dismissGate(_ gate: FlowHeldGate<Route>?, source: FlowOperationSource) {
        guard let gate else { return }
        if let id = gate.presentedStackID, storage.state.stacks.dropFirst().contains(where: { $0.id == id }) {
            perform(FlowCommand(.dismiss(target: .stack(id))), source: source)
        }
        if let dialog = gate.dialog, isShowing(dialog) {
            hideDialog(source: source)
        }
    }

    /// Whether `gate` shows something a retry dismisses: the stack its redirect presented, or
    /// its dialog.
    func isShowing(_ gate: FlowHeldGate<Route>?) -> Bool {
        guard let gate else { return false }
        if let id = gate.presentedStackID, storage.state.stacks.dropFirst().contains(where: { $0.id == id }) { return true }
        return gate.dialog.map(isShowing) ?? false
    }

    /// Whether `dialog` is the visible dialog.
    func isShowing(_ dialog: FlowDialogValue) -> Bool {
        storage.state.globalDialog != nil && dialogKey(storage.state.globalDialog) == dialog.id
    }

    /// Whether a request held behind `dialog` has lost its gate: the dialog is neither visible
    /// nor queued, and no retry or transaction is hiding it on the way to the request (the
    /// person dismissed it without the rules allowing the request).
    func isDismissedGate(_ dialog: FlowDialogValue) -> Bool {
        transactionState == nil && !storage.isSettlingHeld && !isShowing(dialog)
            && !storage.state.dialogQueue.contains(where: { dialogKey($0) == dialog.id })
    }

    /// What a retry's transaction comes to, showing the next gate when another one refused it.
    private func settleHeld(
        _ transaction: FlowTransactionResult<Route>, gate: FlowHeldGate<Route>?, explicit: Bool,
        source: FlowOperationSource
    ) -> FlowHeldAttempt<Route> {
        if transaction.isCommitted { return FlowHeldAttempt(transaction: transaction, outcome: .ran) }
        storage.isSettlingHeld = true
        defer { storage.isSettlingHeld = false }
        let why = transaction.reason ?? "a step failed"
        guard let failure = transaction.failure, failure.status.isBlocked else {
            return FlowHeldAttempt(transaction: transaction, outcome: .cannotRun(reason: why))
        }
        let asked: FlowHeldGate<Route>? = failure.pendingRedirect.map { FlowHeldGate(redirect: $0) }
            ?? failure.dialogRedirect.map { FlowHeldGate(dialog: $0.dialog, policy: $0.policy) }
        guard var next = asked else {
            return FlowHeldAttempt(transaction: transaction, outcome: .sameGate(reason: why))
        }
        var attempt = FlowHeldAttempt(transaction: transaction, outcome: .sameGate(reason: why))
        if next.isSame(as: gate) {
            // The same gate: nothing changes, but code that asks again shows a closed gate again.
            guard explicit, let gate else { return attempt }
            if let redirect = gate.redirect, !redirect.isShowing(in: storage.state.stacks) {
                attempt.redirect = perform(redirect, source: source)
                next.presentedStackID = presentedStack(by: attempt.redirect)
                return FlowHeldAttempt(
                    transaction: transaction, outcome: .nextGate(next, holds: true, reason: why),
                    redirect: attempt.redirect)
            }
            if let dialog = gate.dialog, !isShowing(dialog) {
                attempt.dialog = showRuleDialog(FlowDialogRedirect(dialog: dialog, policy: gate.policy))
            }
            return attempt
        }
        // The next gate: the first one is dismissed and the new redirect runs, as one transaction
        // (refused, nothing changes); with nothing to dismiss, the redirect runs as any request
        // (its own redirects followed). A redirect to what is already on screen is not repeated.
        var shown: FlowOperationResult<Route>?
        if isShowing(gate) {
            let swap = self.transaction { router in
                router.dismissGate(gate, source: source)
                if let redirect = next.redirect, !redirect.isShowing(in: router.storage.state.stacks) {
                    shown = router.perform(redirect, source: source)
                }
            }
            guard swap.isCommitted else {
                return FlowHeldAttempt(
                    transaction: transaction,
                    outcome: .gateRefused(reason: "\(why); its next gate was refused: \(swap.reason ?? "a step failed")"))
            }
        } else if let redirect = next.redirect, !redirect.isShowing(in: storage.state.stacks) {
            shown = perform(redirect, source: source)
        }
        attempt.redirect = shown
        next.presentedStackID = presentedStack(by: shown)
        if let dialog = next.dialog {
            attempt.dialog = showRuleDialog(FlowDialogRedirect(dialog: dialog, policy: next.policy))
        }
        return FlowHeldAttempt(
            transaction: transaction, outcome: .nextGate(next, holds: failure.redirectHolds, reason: why),
            redirect: attempt.redirect, dialog: attempt.dialog)
    }

    /// The stack a redirect presented (the login sheet), or `nil` when it presented none.
    func presentedStack(by redirect: FlowOperationResult<Route>?) -> UUID? {
        guard let redirect, redirect.isApplied, case .present = redirect.command.operation else { return nil }
        return storage.state.stacks.last?.id
    }
}
