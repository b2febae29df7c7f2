/// What became of a link: matched, refused by the policy, or matched by no pattern.
public enum FlowLinkResolution<Handler> {
    /// A pattern matched and the policy accepts the link.
    case matched(FlowLinkMatch<Handler>)
    /// The policy refuses the link's scheme or host; the reason says which and what is allowed.
    case rejected(reason: String)
    /// The policy accepts the link but no pattern matches it; the reason names the path.
    case unhandled(reason: String)

    /// The match, when there is one.
    public var match: FlowLinkMatch<Handler>? {
        if case .matched(let match) = self { return match }
        return nil
    }

    /// The reason for a rejected or unhandled link, `nil` for a match.
    public var reason: String? {
        switch self {
        case .matched: return nil
        case .rejected(let reason), .unhandled(let reason): return reason
        }
    }
}

extension FlowLinkResolution: Sendable where Handler: Sendable {}
extension FlowLinkResolution: Equatable where Handler: Equatable {}
extension FlowLinkResolution: Hashable where Handler: Hashable {}
