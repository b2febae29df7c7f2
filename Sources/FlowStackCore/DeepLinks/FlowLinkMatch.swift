/// A link matched by a registered pattern.
public struct FlowLinkMatch<Handler> {
    /// The pattern that matched.
    public let pattern: FlowLinkPattern
    /// The handler registered with it.
    public let handler: Handler
    /// The query items merged with the path parameters: a path parameter (or the wildcard
    /// capture `"*"`) wins over a query item of the same name; among repeated query items
    /// the last one wins.
    public let parameters: [String: String]
    /// The 0-based registration index of the pattern.
    public let index: Int
    /// Where the pattern was registered, if known.
    public let location: FlowLinkSourceLocation?
    /// The normalized link.
    public let request: FlowLinkRequest

}

extension FlowLinkMatch: Sendable where Handler: Sendable {}
extension FlowLinkMatch: Equatable where Handler: Equatable {}
extension FlowLinkMatch: Hashable where Handler: Hashable {}
