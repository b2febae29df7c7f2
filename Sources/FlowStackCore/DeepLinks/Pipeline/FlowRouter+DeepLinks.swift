import Foundation

/// Deep links on the router itself, forwarded to `deepLinks` (see `FlowDeepLinkCenter`).
extension FlowRouter {
    /// Opens a deep link: its plan runs as one transaction with `source` (`.deeplink`);
    /// `.applied`, `.pending` (blocked: redirect performed, link held), `.rejected` or
    /// `.unhandled`, with a reason.
    @discardableResult
    public func open(_ url: URL, source: FlowOperationSource = .deeplink) -> FlowDeepLinkResult<Route> {
        // A link opened while a rule decides (from a host function it calls) cannot navigate:
        // every step would be refused, so nothing is attempted and the result says why.
        if isRuleDeciding {
            return FlowDeepLinkResult(
                url: url, status: .unhandled,
                reason: "link '\(url.absoluteString)' was opened while a rule was deciding: nothing was applied; "
                    + "rules navigate only through a redirect (open links from app code)",
                trigger: .open)
        }
        return deepLinks.open(url, source: source)
    }

    /// Opens a deep link with source `.deeplink`; call it from `onOpenURL`.
    @discardableResult
    public func open(url: URL) -> FlowDeepLinkResult<Route> {
        deepLinks.open(url: url)
    }

    /// Retries the held link; `nil` when none is held.
    @discardableResult
    public func resumePendingLink() -> FlowDeepLinkResult<Route>? {
        deepLinks.resumePendingLink()
    }

    /// The held link's URL, or `nil` (an expired link is dropped first).
    public var pendingLink: URL? {
        deepLinks.pendingLink
    }

    /// Seconds after which a held link is dropped (default 600, 10 minutes).
    public var pendingLinkTimeout: TimeInterval {
        get { deepLinks.pendingLinkTimeout }
        set { deepLinks.pendingLinkTimeout = newValue }
    }
}
