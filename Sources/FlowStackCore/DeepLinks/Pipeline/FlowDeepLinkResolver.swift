import Foundation

/// Turns a link into a navigation plan; what a `FlowDeepLinkCenter` asks for every link.
///
/// `FlowDeepLinks` implements it with Swift closures; the Lua engine implements it with the
/// handlers registered by `flow.deeplink`. A resolver only decides: it must not navigate (the
/// center runs the plan as one transaction and holds the link when a rule blocks it).
@MainActor
public protocol FlowDeepLinkResolver<Route> {
    /// The route type of the plans.
    associatedtype Route: Hashable

    /// The plan for `url`, or why there is none (`rejected` by the policy, `unhandled`).
    func resolve(_ url: URL) -> FlowDeepLinkResolution<Route>
}
