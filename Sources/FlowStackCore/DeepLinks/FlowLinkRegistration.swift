/// One registered pattern with its handler.
public struct FlowLinkRegistration<Handler> {
    /// The parsed pattern.
    public let pattern: FlowLinkPattern
    /// What to run when the pattern matches.
    public let handler: Handler
    /// Where the pattern was registered, if known.
    public let location: FlowLinkSourceLocation?

}

extension FlowLinkRegistration: Sendable where Handler: Sendable {}
extension FlowLinkRegistration: Equatable where Handler: Equatable {}
extension FlowLinkRegistration: Hashable where Handler: Hashable {}
