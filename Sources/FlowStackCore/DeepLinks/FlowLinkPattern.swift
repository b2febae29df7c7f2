/// A deep-link path pattern such as `/products/:id`, `/promo/*` or `/settings`.
///
/// A pattern is a list of segments separated by `/`:
/// - a literal segment (`products`) matches exactly that percent-decoded path segment;
///   the comparison is case-sensitive;
/// - a parameter (`:id`) matches any one segment and captures it under its name;
/// - a trailing wildcard (`*`) matches zero or more remaining segments and captures them,
///   joined by `/`, under the key `"*"` (an empty string when nothing remains), so
///   `/promo/*` matches `/promo`, `/promo/spring` and `/promo/spring/2025`.
///
/// Trailing slashes are ignored and empty segments are collapsed, both in patterns and in
/// links: `/a//b/` is the pattern `/a/b`. `/` alone is the root pattern, which matches a
/// link with no path segments.
///
/// Two patterns are equal when they have the same segments, including parameter names;
/// `source`, the text as written, does not take part in equality.
public struct FlowLinkPattern: Hashable, Sendable, CustomStringConvertible {
    /// One segment of a pattern.
    public enum Segment: Hashable, Sendable {
        /// Matches exactly this (percent-decoded) path segment, case-sensitively.
        case literal(String)
        /// Matches any one path segment and captures it under this name.
        case parameter(String)
        /// Matches zero or more remaining path segments; only allowed as the last segment.
        case wildcard
    }

    /// The parameter key under which a wildcard's capture is stored: `"*"`.
    public static let wildcardKey = "*"

    /// The segments, in order.
    public let segments: [Segment]

    /// The pattern as it was written, for messages.
    public let source: String

    /// Whether the pattern ends with `*`.
    public let hasWildcard: Bool

    /// The number of segments before any wildcard: the exact path length without a
    /// wildcard, the minimum one with it.
    let fixedCount: Int

    /// Parses a pattern such as `/users/:uid/posts/:pid`.
    ///
    /// - Throws: `FlowLinkPatternError` when the pattern is empty, does not start with `/`,
    ///   has an empty, invalid or repeated parameter name, has a `*` that is not the last
    ///   segment, or has a character that literal segments do not accept.
    public init(_ source: String) throws(FlowLinkPatternError) {
        let segments = try Self.parseSegments(source)
        self.segments = segments
        self.source = source
        self.hasWildcard = segments.last == .wildcard
        self.fixedCount = hasWildcard ? segments.count - 1 : segments.count
    }

    /// The canonical text of the pattern, such as `/products/:id` (`/` for the root pattern).
    public var description: String { Self.render(segments) }

    /// The parameter names in order, without the wildcard key.
    public var parameterNames: [String] {
        segments.compactMap { segment in
            if case .parameter(let name) = segment { return name }
            return nil
        }
    }

    /// Whether both patterns match exactly the same paths, that is, they are equal once
    /// parameter names are ignored (`/a/:x` has the same shape as `/a/:y`).
    public func hasSameShape(as other: FlowLinkPattern) -> Bool {
        shape == other.shape
    }

    /// The segments with every parameter name erased.
    var shape: [Segment] {
        segments.map { segment in
            if case .parameter = segment { return .parameter("") }
            return segment
        }
    }

    /// Compares the segments only.
    public static func == (lhs: FlowLinkPattern, rhs: FlowLinkPattern) -> Bool {
        lhs.segments == rhs.segments
    }

    /// Hashes the segments only.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(segments)
    }

    private static func render(_ segments: [Segment]) -> String {
        "/" + segments.map { segment in
            switch segment {
            case .literal(let text): return text
            case .parameter(let name): return ":" + name
            case .wildcard: return "*"
            }
        }.joined(separator: "/")
    }
}
