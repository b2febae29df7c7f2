/// A registered pattern named by a diagnostic.
public struct FlowLinkPatternReference: Hashable, Sendable, CustomStringConvertible {
    /// The 0-based registration index.
    public let index: Int
    /// The pattern.
    public let pattern: FlowLinkPattern
    /// Where it was registered, if known.
    public let location: FlowLinkSourceLocation?

    /// `'/products/:id' (#2, rules/links.lua:7)`: the pattern, its 1-based registration
    /// number and its location when known.
    public var description: String {
        let place = location.map { ", \($0)" } ?? ""
        return "'\(pattern)' (#\(index + 1)\(place))"
    }
}
