import Foundation

/// Deep links handled by Swift closures: an ordered list of patterns with their handlers, and
/// the policy that limits which schemes and hosts are accepted.
///
/// For apps that do not write their links in Lua. Install it on a router's center:
///
/// ```swift
/// var links = FlowDeepLinks<AppRoute>(policy: FlowLinkPolicy(allowedSchemes: ["myapp", "https"],
///                                                            allowedHosts: ["example.com"]))
/// try links.add("/products/:id") { p, _ in
///     guard let id = p["id"] else { return nil }
///     return [.popToRoot(), .push(.detail(id: id))]
/// }
/// router.deepLinks.resolver = links
/// router.open(url: url)   // from onOpenURL
/// ```
///
/// The first registered pattern that matches wins; `diagnostics` reports patterns that never
/// can. The value is copied when installed: register every link before assigning it.
@MainActor
public struct FlowDeepLinks<Route: Hashable>: FlowDeepLinkResolver {
    /// A handler: the parameters (path parameters merged over query items, percent-decoded;
    /// the wildcard's capture under `"*"`) and the URL; returns the plan, or `nil` when it does
    /// not handle this link.
    public typealias Handler = @MainActor (_ parameters: [String: String], _ url: URL) -> [FlowCommand<Route>]?

    /// Which schemes and hosts are accepted; checked before any pattern.
    public var policy: FlowLinkPolicy
    /// The registered patterns and handlers, in order.
    public private(set) var matcher = FlowLinkMatcher<Handler>()

    /// Creates an empty set of links with a policy (by default every link is accepted).
    public init(policy: FlowLinkPolicy = .allowAll) {
        self.policy = policy
    }

    /// The number of registered patterns.
    public var count: Int { matcher.count }

    /// The registered patterns that can never be the first match (duplicates, shadowed ones).
    public var diagnostics: [FlowLinkDiagnostic] { matcher.diagnostics }

    /// Registers `pattern` (such as `/products/:id` or `/promo/*`) after the existing ones.
    ///
    /// - Parameters:
    ///   - pattern: the pattern: literal segments, `:name` parameters, an optional trailing `*`.
    ///   - file: where the pattern is registered, for diagnostics (the caller's file by default).
    ///   - line: the line in `file`.
    ///   - handler: returns the plan for a matching link, or `nil` when it does not handle it.
    /// - Throws: `FlowLinkPatternError` when the pattern cannot be parsed; nothing is registered then.
    public mutating func add(
        _ pattern: String,
        file: String = #fileID,
        line: Int = #line,
        _ handler: @escaping Handler
    ) throws(FlowLinkPatternError) {
        try matcher.add(pattern, handler, file: file, line: line)
    }

    /// Removes every registered pattern (the policy stays).
    public mutating func removeAll() {
        matcher.removeAll()
    }

    /// Checks the policy, finds the first matching pattern and asks its handler for the plan.
    public func resolve(_ url: URL) -> FlowDeepLinkResolution<Route> {
        FlowDeepLinkResolution(matcher.resolve(url, policy: policy)) { match in
            match.handler(match.parameters, url)
        }
    }
}
