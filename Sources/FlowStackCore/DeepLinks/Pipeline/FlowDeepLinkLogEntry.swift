import Foundation

/// One event of a deep-link center, for diagnostics: an attempt and its status, or a dropped
/// held link.
///
/// Links are not navigation operations, so they are not in the router's history (the
/// operations of their plans are, with source `.deeplink`); the center keeps the last few
/// events in `linkLog` instead.
public struct FlowDeepLinkLogEntry: Hashable, Sendable, CustomStringConvertible {
    /// What happened.
    public enum Event: Hashable, Sendable {
        /// The link was opened or retried, with the resulting status.
        case attempted(FlowDeepLinkTrigger, FlowDeepLinkStatus)
        /// The held link was dropped (expired, replaced, superseded, no longer handled or
        /// dropped on request).
        case dropped
    }

    /// When it happened, by the center's clock.
    public let date: Date
    /// The link.
    public let url: URL
    /// What happened.
    public let event: Event
    /// Why (the status's reason, or why the link was dropped); `nil` for an applied link.
    public let reason: String?

    /// `open myapp://products/42: applied`, `dropped myapp://editor: <reason>`.
    public var description: String {
        let head: String
        switch event {
        case .attempted(let trigger, let status): head = "\(trigger.rawValue) \(url.absoluteString): \(status.rawValue)"
        case .dropped: head = "dropped \(url.absoluteString)"
        }
        return head + (reason.map { ": \($0)" } ?? "")
    }
}
