import Foundation

/// Opens deep links on a router: resolves each link to a plan, runs the plan as one
/// transaction, and holds a link whose plan a rule blocked until it can be applied.
///
/// Every router has one, `router.deepLinks`; configure it there and open links with
/// `router.open(url:)` (from `onOpenURL`):
///
/// ```swift
/// router.deepLinks.resolver = links          // FlowDeepLinks, or the Lua engine
/// let result = router.open(url: url)         // .applied, .pending, .rejected, .unhandled
/// // after the person logs in:
/// router.deepLinks.factsDidChange()          // or router.resumePendingLink()
/// ```
///
/// What happens to a link:
/// - **rejected** (scheme or host refused by the policy) and **unhandled** (no pattern, no
///   plan, or a plan that cannot run in the current state, such as `popTo` a route that is not
///   there): nothing changes and nothing is held. A held link stays held.
/// - Otherwise the plan runs as one transaction, each operation with the link's source
///   (`.deeplink`), checked by the preconditions, the guard and the rules like any other.
///   **applied**: every step applied. A previously held link is dropped, since the newer link
///   is what the person asked for last.
/// - **pending**: a step was blocked, so nothing of the plan applied; the blocking rule's
///   redirect (the login screen, say) is performed, and the link is held. One link is held at
///   most: a newer pending link replaces it.
///
/// A held link is retried by `resumePendingLink()` and `factsDidChange()` (the Lua engine
/// calls the latter whenever a fact changes), as a held navigation is (`FlowPendingNavigation`,
/// the same code): a retry resolves the link again, so it follows the rules and handlers in
/// force, and runs its plan in one transaction with the dismissal of its gate (the stack or
/// dialog the last redirect showed). If it applies, it is no longer held. Blocked again:
/// - by the same redirect: nothing changes (an explicit `resumePendingLink()` shows that gate
///   again if the person closed it; a fact change does not);
/// - by another redirect (the paywall, once logged in): the first gate is dismissed and the new
///   redirect performed, and the link stays held;
/// - a redirect whose target is already on screen is never performed again, so login screens
///   do not stack.
///
/// A link that is no longer handled or no longer allowed when retried is dropped, and so is a
/// link held behind a dialog the person dismissed without the rules allowing it. A held link
/// is dropped `pendingLinkTimeout` seconds (10 minutes by default) after it was first held;
/// this is checked whenever the held link is read or retried, with the clock `now`.
///
/// A plan that presents several stacks produces the nested state at once; FlowStack plays
/// it to SwiftUI one presentation per update (`FlowRouter.stagingPlan(from:)`).
///
/// Links are not navigation operations: they are not recorded in the router's history (their
/// plans' operations are, with source `.deeplink`); the last few link events are in `linkLog`.
@MainActor
public final class FlowDeepLinkCenter<Route: Hashable, Dialog> {
    /// The router the links navigate (held weakly: the router owns its center).
    public private(set) weak var router: FlowRouter<Route, Dialog>?
    /// Turns links into plans: `FlowDeepLinks` for Swift closures, or the Lua engine. With no
    /// resolver every link is unhandled.
    public var resolver: (any FlowDeepLinkResolver<Route>)?
    /// Seconds after which a held link is dropped; 600 (10 minutes) by default.
    public var pendingLinkTimeout: TimeInterval = 600
    /// The clock used for holding links and their timeout; replace it in tests.
    public var now: @MainActor () -> Date
    /// How many events `linkLog` keeps (default 20; 0 keeps none).
    public var maximumLogCount = 20 {
        didSet { trimLog() }
    }
    /// The last link events, oldest first.
    public private(set) var linkLog: [FlowDeepLinkLogEntry] = []
    /// Called after every link event is logged (for analytics, or to refresh a UI that shows
    /// the held link).
    public var onEvent: (@MainActor (FlowDeepLinkLogEntry) -> Void)?

    /// The held link, kept in the router's state value (`FlowRouterState.pendingLink`); `nil`
    /// once the router is gone.
    var held: FlowPendingLink<Route>? {
        get { router?.storage.state.pendingLink }
        set { router?.storage.state.pendingLink = newValue }
    }
    var isRunning = false
    var deferredRetry: FlowDeepLinkTrigger?

    /// Creates a center for `router`. Apps normally use `router.deepLinks` instead.
    public init(
        router: FlowRouter<Route, Dialog>,
        resolver: (any FlowDeepLinkResolver<Route>)? = nil,
        now: @escaping @MainActor () -> Date = { Date() }
    ) {
        self.router = router
        self.resolver = resolver
        self.now = now
    }

    /// The held link, or `nil`; drops it first when it has expired.
    public var heldLink: FlowPendingLink<Route>? {
        expireIfNeeded()
        return held
    }

    /// The held link's URL, or `nil`; drops it first when it has expired.
    public var pendingLink: URL? { heldLink?.url }

    /// Opens a link: resolves it, runs its plan as one transaction, and holds it when a rule
    /// blocks the plan (see the type's documentation).
    ///
    /// The plan runs synchronously: the synchronous preconditions, the guard and the rules
    /// decide (async preconditions are not consulted). Do not open a link inside
    /// `transaction(_:)`: its plan would join that transaction.
    ///
    /// - Parameters:
    ///   - url: the link.
    ///   - source: the source the plan's operations are recorded with; `.deeplink` unless the
    ///     app wants them treated as its own (`.code`).
    @discardableResult
    public func open(_ url: URL, source: FlowOperationSource = .deeplink) -> FlowDeepLinkResult<Route> {
        if isRunning {
            let result = FlowDeepLinkResult<Route>(
                url: url, status: .unhandled,
                reason: "link '\(url.absoluteString)' was opened while another deep link was being handled; "
                    + "open links one at a time (from onOpenURL or app code), not from a handler, rule or observer",
                trigger: .open
            )
            log(.attempted(.open, .unhandled), url: url, reason: result.reason)
            return result
        }
        expireIfNeeded()
        let (result, gate) = running { attempt(url, source: source, trigger: .open) }
        log(.attempted(.open, result.status), url: url, reason: result.reason)
        switch result.status {
        case .applied:
            if let previous = held {
                held = nil
                log(.dropped, url: previous.url, reason: "a newer link, '\(url.absoluteString)', was applied")
            }
            // The person followed a link since the navigation was held: signing in later must
            // not take them from where the link led back to what they asked for before it.
            router?.cancelPendingNavigation()
        case .pending:
            // One request waits at most, link or navigation: the newer replaces the older.
            router?.cancelPendingNavigation()
            if let previous = held {
                log(.dropped, url: previous.url, reason: "replaced by the newer link '\(url.absoluteString)'")
            }
            held = FlowPendingLink(url: url, source: source, heldAt: now(), reason: result.reason ?? "a step of its plan was blocked")
            held?.gate = gate
        case .rejected, .unhandled:
            break
        }
        runDeferredRetry()
        return result
    }

    /// Opens a link with source `.deeplink`; the form to call from `onOpenURL`.
    @discardableResult
    public func open(url: URL) -> FlowDeepLinkResult<Route> {
        open(url, source: .deeplink)
    }

    /// Retries the held link now; `nil` when no link is held (or it just expired).
    ///
    /// If it is blocked again, its redirect is performed unless that target is already showing.
    @discardableResult
    public func resumePendingLink() -> FlowDeepLinkResult<Route>? {
        retry(.resume)
    }

    /// Tells the center that facts the rules read have changed: retries the held link, if any.
    ///
    /// The Lua engine calls this when a fact changes; Swift apps call it when the state their
    /// preconditions read changes (the person logged in). A redirect performed for the held
    /// link last time is not performed again. Called while a link is being handled, the retry
    /// runs right after it and this returns `nil`.
    @discardableResult
    public func factsDidChange() -> FlowDeepLinkResult<Route>? {
        retry(.factsChanged)
    }

    /// Drops the held link, if any.
    public func dropPendingLink() {
        guard let link = held else { return }
        held = nil
        log(.dropped, url: link.url, reason: "dropPendingLink() was called")
    }

    /// A dialog changed: a link held behind a dialog that is no longer visible nor queued is
    /// dropped (the person dismissed the dialog without the rules allowing the link), as a held
    /// navigation is; logged as `.dropped` with the dialog's name.
    func dropLinkHeldByDismissedDialog() {
        guard !isRunning, let link = held, let dialog = link.lastDialog,
              router?.isDismissedGate(dialog) == true else { return }
        held = nil
        log(.dropped, url: link.url, reason: "the dialog '\(dialog.id)' was dismissed before the rules allowed it")
    }

    /// Drops the held link for a navigation held after it (one request waits at most, link or
    /// navigation: the newer replaces the older).
    func dropHeldLink(forNewerNavigation navigation: String) {
        guard let link = held else { return }
        held = nil
        log(.dropped, url: link.url, reason: "replaced by the newer held navigation '\(navigation)'")
    }

    /// Empties `linkLog`.
    public func clearLinkLog() {
        linkLog.removeAll()
    }

    private func retry(_ trigger: FlowDeepLinkTrigger) -> FlowDeepLinkResult<Route>? {
        if isRunning {
            if deferredRetry != .resume { deferredRetry = trigger }
            return nil
        }
        expireIfNeeded()
        guard let link = held else { return nil }
        let (result, gate) = running { attempt(link.url, source: link.source, trigger: trigger, gate: link.gate) }
        log(.attempted(trigger, result.status), url: link.url, reason: result.reason)
        if held == link {
            switch result.status {
            case .applied:
                held = nil
            case .pending:
                held?.reason = result.reason ?? link.reason
                held?.attempts += 1
                held?.gate = gate
            case .rejected, .unhandled:
                held = nil
                log(.dropped, url: link.url, reason: "it is no longer handled: \(result.reason ?? result.status.rawValue)")
            }
        }
        runDeferredRetry()
        return result
    }

    private func running<Output>(_ body: () -> Output) -> Output {
        isRunning = true
        defer { isRunning = false }
        return body()
    }

    private func runDeferredRetry() {
        guard let trigger = deferredRetry else { return }
        deferredRetry = nil
        _ = retry(trigger)
    }

    private func expireIfNeeded() {
        guard let link = held, link.isExpired(at: now(), timeout: pendingLinkTimeout) else { return }
        held = nil
        log(.dropped, url: link.url, reason: "held for \(Self.seconds(pendingLinkTimeout)) without being applied "
            + "(pendingLinkTimeout); open it again, or raise pendingLinkTimeout")
    }

    private func log(_ event: FlowDeepLinkLogEntry.Event, url: URL, reason: String?) {
        let entry = FlowDeepLinkLogEntry(date: now(), url: url, event: event, reason: reason)
        linkLog.append(entry)
        trimLog()
        onEvent?(entry)
    }

    private func trimLog() {
        let excess = linkLog.count - max(maximumLogCount, 0)
        if excess > 0 { linkLog.removeFirst(excess) }
    }

    private static func seconds(_ interval: TimeInterval) -> String {
        interval.rounded() == interval && abs(interval) < 1e15 ? "\(Int(interval)) s" : "\(interval) s"
    }
}
