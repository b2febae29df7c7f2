/// Where a deep link was registered, for diagnostics (filled in by the Lua side).
public struct FlowLinkSourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file, as it should be shown (for example `rules/links.lua`).
    public let file: String
    /// The 1-based line, if known.
    public let line: Int?

    /// Creates a location.
    public init(file: String, line: Int? = nil) {
        self.file = file
        self.line = line
    }

    /// `file:line`, or `file` when the line is unknown.
    public var description: String { line.map { "\(file):\($0)" } ?? file }
}

/// One registered pattern with its handler.
public struct FlowLinkRegistration<Handler> {
    /// The parsed pattern.
    public let pattern: FlowLinkPattern
    /// What to run when the pattern matches.
    public let handler: Handler
    /// Where the pattern was registered, if known.
    public let location: FlowLinkSourceLocation?

    /// Creates a registration.
    public init(pattern: FlowLinkPattern, handler: Handler, location: FlowLinkSourceLocation? = nil) {
        self.pattern = pattern
        self.handler = handler
        self.location = location
    }
}

extension FlowLinkRegistration: Sendable where Handler: Sendable {}
extension FlowLinkRegistration: Equatable where Handler: Equatable {}
extension FlowLinkRegistration: Hashable where Handler: Hashable {}

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

    /// Creates a match.
    public init(
        pattern: FlowLinkPattern,
        handler: Handler,
        parameters: [String: String],
        index: Int,
        location: FlowLinkSourceLocation?,
        request: FlowLinkRequest
    ) {
        self.pattern = pattern
        self.handler = handler
        self.parameters = parameters
        self.index = index
        self.location = location
        self.request = request
    }
}

extension FlowLinkMatch: Sendable where Handler: Sendable {}
extension FlowLinkMatch: Equatable where Handler: Equatable {}
extension FlowLinkMatch: Hashable where Handler: Hashable {}

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
