import Foundation

/// A navigation a rule refused with `flow.redirect(kind, route, reason, { resume = true })`
/// (a dialog redirect too: `flow.redirect("dialog", id, reason, { resume = true })`), or a
/// Swift rule's redirect with `resume`, held until the rules allow it.
///
/// One navigation is held at most: a newer one replaces it. It runs again, with source
/// `.resume`, when facts change (`FlowRouter.factsDidChange()`, which the Lua engine calls) or
/// on `FlowRouter.resumePendingNavigation()`; first the gate its redirect opened (the sign-in
/// sheet, the PIN dialog) is dismissed if it is still shown. Both happen as one transaction.
/// Refused again by the same gate, nothing changes; refused by another gate (the paywall once
/// signed in), the first gate is dismissed and the new one shown, and the navigation stays held
/// when that redirect holds too: a held link follows the same rules (`FlowDeepLinkCenter`).
/// Held from an async navigation (`pushAsync`), it resumes through the async queue, so its
/// rules may call async hosts. It is dropped `FlowRouter.pendingNavigationTimeout` seconds after
/// it was held, and when the dialog that holds it is dismissed without the rules allowing it.
public struct FlowPendingNavigation<Route: Hashable> {
    /// The held navigation, as it was asked for.
    public let command: FlowCommand<Route>
    /// The source it was asked with (it runs again with `.resume`).
    public let source: FlowOperationSource
    /// When it was held; the timeout counts from here.
    public let heldAt: Date
    /// The history sequence of the refusal that held it.
    public let sequence: Int?
    /// The navigation redirect whose screen is its gate now (the sign-in screen, then the
    /// paywall), or `nil` when the gate is a dialog.
    public internal(set) var redirect: FlowCommand<Route>?
    /// The dialog that is its gate now (`flow.redirect("dialog", id, reason, { resume = true })`),
    /// or `nil`: dismissed without the rules allowing the navigation, the navigation is dropped.
    public internal(set) var dialog: FlowDialogValue?
    /// The policy its gate dialog is shown with again.
    var dialogPolicy: FlowDialogPolicy = .replace
    /// Whether it was asked for through the async queue (`pushAsync`): it then resumes through
    /// the async pipeline, where its rules may call async hosts.
    public let isAsync: Bool
    /// The stack its gate's redirect presented, dismissed before the navigation runs again if
    /// it is still shown; `nil` when the redirect presented nothing.
    public internal(set) var presentedStackID: UUID?
    /// Why it is held: the refusing rule's reason, at the last attempt.
    public internal(set) var reason: String
    /// The number of times it was refused, the first included.
    public internal(set) var attempts: Int

    /// Creates a held navigation.
    public init(
        command: FlowCommand<Route>, source: FlowOperationSource, heldAt: Date, sequence: Int?,
        redirect: FlowCommand<Route>?, dialog: FlowDialogValue? = nil, isAsync: Bool = false,
        presentedStackID: UUID? = nil, reason: String, attempts: Int = 1
    ) {
        self.command = command
        self.source = source
        self.heldAt = heldAt
        self.sequence = sequence
        self.redirect = redirect
        self.dialog = dialog
        self.isAsync = isAsync
        self.presentedStackID = presentedStackID
        self.reason = reason
        self.attempts = attempts
    }

    /// The held navigation's kind as rules name it (`push`, `pushMany`, `sheet`, ...).
    public var kind: String { command.kindName }

    /// The routes it navigates to (none for `pop`, `dismiss`, ...).
    public var routes: [Route] { command.routes }

    /// When it is dropped, given a timeout in seconds.
    public func expiry(timeout: TimeInterval) -> Date {
        heldAt.addingTimeInterval(timeout)
    }

    /// Whether it has been held for `timeout` seconds or more at `date`.
    public func isExpired(at date: Date, timeout: TimeInterval) -> Bool {
        date.timeIntervalSince(heldAt) >= timeout
    }
}

extension FlowPendingNavigation: Equatable {}

extension FlowPendingNavigation {
    /// Its gate, as the retry of a held request reads and writes it.
    var gate: FlowHeldGate<Route> {
        get {
            var gate = dialog.map { FlowHeldGate<Route>(dialog: $0, policy: dialogPolicy) }
                ?? FlowHeldGate(redirect: redirect)
            gate.presentedStackID = presentedStackID
            return gate
        }
        set {
            redirect = newValue.redirect
            dialog = newValue.dialog
            dialogPolicy = newValue.policy
            presentedStackID = newValue.presentedStackID
        }
    }
}
extension FlowPendingNavigation: Sendable where Route: Sendable {}

/// What `resumePendingNavigation()` did with the held navigation.
public struct FlowResumeResult<Route: Hashable> {
    /// What happened.
    public enum Status: String, Hashable, Sendable {
        /// It ran (with source `.resume`) and is no longer held.
        case resumed
        /// The rules (or a check) still refuse it: it stays held. Nothing changed when the same
        /// gate refused it again; another gate (the paywall once signed in) replaced the first.
        case stillHeld
        /// It can no longer run (its stack or route is gone), it timed out, or a next gate's
        /// redirect does not hold it: it was dropped.
        case dropped
        /// No navigation is held.
        case nothingHeld
        /// The router is busy (a rule is deciding, a transaction runs): try again after it.
        case busy
    }

    /// What happened.
    public let status: Status
    /// Why it did not run, or `nil` when it did.
    public let reason: String?
    /// The held navigation this was about, if any.
    public let navigation: FlowPendingNavigation<Route>?
    /// The transaction that ran it (the dismissal of the redirect's presentation, then the
    /// navigation), if it was attempted.
    public let transaction: FlowTransactionResult<Route>?

    /// Whether the held navigation ran.
    public var didResume: Bool { status == .resumed }
}

extension FlowResumeResult: Sendable where Route: Sendable {}
