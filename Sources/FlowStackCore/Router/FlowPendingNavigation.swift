import Foundation

/// A navigation a rule refused with `flow.redirect(kind, route, reason, { resume = true })`
/// (or a Swift rule's redirect with `resume`), held until the rules allow it.
///
/// One navigation is held at most: a newer one replaces it. It runs again, with source
/// `.resume`, when facts change (`FlowRouter.factsDidChange()`, which the Lua engine calls) or
/// on `FlowRouter.resumePendingNavigation()`; first the presentation the redirect opened (the
/// sign-in sheet) is dismissed if it is still shown. Both happen as one transaction: when the
/// rules still refuse, nothing changes and the navigation stays held. It is dropped
/// `FlowRouter.pendingNavigationTimeout` seconds after it was held.
public struct FlowPendingNavigation<Route: Hashable> {
    /// The held navigation, as it was asked for.
    public let command: FlowCommand<Route>
    /// The source it was asked with (it runs again with `.resume`).
    public let source: FlowOperationSource
    /// When it was held; the timeout counts from here.
    public let heldAt: Date
    /// The history sequence of the refusal that held it.
    public let sequence: Int?
    /// The redirect performed when it was held (the sign-in screen).
    public let redirect: FlowCommand<Route>
    /// The stack the redirect presented, dismissed before the navigation runs again if it is
    /// still shown; `nil` when the redirect presented nothing.
    public internal(set) var presentedStackID: UUID?
    /// Why it is held: the refusing rule's reason, at the last attempt.
    public internal(set) var reason: String
    /// The number of times it was refused, the first included.
    public internal(set) var attempts: Int

    /// Creates a held navigation.
    public init(
        command: FlowCommand<Route>, source: FlowOperationSource, heldAt: Date, sequence: Int?,
        redirect: FlowCommand<Route>, presentedStackID: UUID? = nil, reason: String, attempts: Int = 1
    ) {
        self.command = command
        self.source = source
        self.heldAt = heldAt
        self.sequence = sequence
        self.redirect = redirect
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
extension FlowPendingNavigation: Sendable where Route: Sendable {}

/// What `resumePendingNavigation()` did with the held navigation.
public struct FlowResumeResult<Route: Hashable> {
    /// What happened.
    public enum Status: String, Hashable, Sendable {
        /// It ran (with source `.resume`) and is no longer held.
        case resumed
        /// The rules (or a check) still refuse it: nothing changed, it stays held.
        case stillHeld
        /// It can no longer run (its stack or route is gone) or it timed out: it was dropped.
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
