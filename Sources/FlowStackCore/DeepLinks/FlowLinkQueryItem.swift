/// One `name=value` item of a link's query, percent-decoded.
public struct FlowLinkQueryItem: Hashable, Sendable {
    /// The decoded name (never empty).
    public let name: String
    /// The decoded value; empty for an item written without `=` (`?flag`).
    public let value: String
}
