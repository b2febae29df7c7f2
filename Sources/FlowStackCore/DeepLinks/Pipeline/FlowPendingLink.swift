import Foundation

/// The link a center holds because a rule blocked its plan, waiting to be retried.
public struct FlowPendingLink<Route: Hashable>: Hashable {
    /// The held link.
    public let url: URL
    /// The source its plan runs with (normally `.deeplink`).
    public let source: FlowOperationSource
    /// When it was first held; the timeout counts from here, retries do not extend it.
    public let heldAt: Date
    /// Why its plan was blocked, at the last attempt.
    public internal(set) var reason: String
    /// The number of attempts so far, the first `open` included.
    public internal(set) var attempts: Int = 1
    /// The last redirect performed for this link, if any; an automatic retry does not perform
    /// the same redirect again.
    public internal(set) var lastRedirect: FlowCommand<Route>?
    /// The stack that redirect presented (the login sheet), if it presented one: dismissed
    /// first when the link is retried, in the same transaction as its plan, as a held
    /// navigation does.
    public internal(set) var presentedStackID: UUID?
    /// The dialog a blocking rule last answered the link with, if its gate is a dialog:
    /// dismissed first when the link is retried.
    public internal(set) var lastDialog: FlowDialogValue?
    /// The policy of that dialog.
    var dialogPolicy: FlowDialogPolicy = .replace

    /// When the link is dropped, given a timeout in seconds.
    public func expiry(timeout: TimeInterval) -> Date {
        heldAt.addingTimeInterval(timeout)
    }

    /// Whether the link has been held for `timeout` seconds or more at `date`.
    public func isExpired(at date: Date, timeout: TimeInterval) -> Bool {
        date.timeIntervalSince(heldAt) >= timeout
    }
}

extension FlowPendingLink: Sendable where Route: Sendable {}

extension FlowPendingLink {
    /// Its gate, as the retry of a held request reads and writes it (`nil` before any redirect).
    var gate: FlowHeldGate<Route>? {
        get {
            if let lastDialog { return FlowHeldGate(dialog: lastDialog, policy: dialogPolicy) }
            guard lastRedirect != nil || presentedStackID != nil else { return nil }
            return FlowHeldGate(redirect: lastRedirect, presentedStackID: presentedStackID)
        }
        set {
            lastRedirect = newValue?.redirect
            lastDialog = newValue?.dialog
            dialogPolicy = newValue?.policy ?? .replace
            presentedStackID = newValue?.presentedStackID
        }
    }
}
