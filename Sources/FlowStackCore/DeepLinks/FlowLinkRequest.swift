import Foundation

/// A link split into the parts deep-link matching uses: scheme, host, path segments and
/// query items.
///
/// Normalization rules:
/// - The scheme and a web host are lowercased (they are case-insensitive in URLs); path
///   segments keep their case, because patterns compare them case-sensitively.
/// - For `http` and `https` links (and scheme-less `//host/...` links) the authority is a
///   network host: user info is dropped and the port is stored in `port`.
/// - For any other scheme (`myapp://products/42`) the authority is not a host: it is read as
///   the first path segment, so the path is `["products", "42"]` and `host` is `nil`. An
///   empty authority (`myapp:///products/42`) or none (`myapp:products/42`) adds nothing.
/// - The path is split on `/` before percent-decoding, so `%2F` stays inside its segment;
///   empty segments are dropped (trailing slashes are ignored) and unencoded `.` and `..`
///   segments are resolved as in RFC 3986. A `%` not followed by two hex digits, or bytes
///   that are not UTF-8 once decoded, leave that segment as written.
/// - The query is split on `&`; each item on its first `=`. Names and values are
///   percent-decoded; `+` stays a `+` (RFC 3986, as Foundation's `URLComponents` does):
///   write `%20` for a space. Items with an empty name are dropped.
/// - The fragment is ignored.
public struct FlowLinkRequest: Hashable, Sendable, CustomStringConvertible {
    /// The link as given (including any fragment), for messages.
    public let link: String
    /// The lowercased scheme (`"myapp"`, `"https"`), or `nil` for a scheme-less link such as `/products/42`.
    public let scheme: String?
    /// The lowercased network host of a web link, or `nil` (always `nil` for custom schemes).
    public let host: String?
    /// The port of a web link, if written.
    public let port: Int?
    /// The percent-decoded, non-empty path segments.
    public let pathSegments: [String]
    /// The query items in order, percent-decoded; a name may repeat.
    public let queryItems: [FlowLinkQueryItem]

    /// Creates a request from its parts (no normalization is applied).
    public init(
        link: String,
        scheme: String?,
        host: String?,
        port: Int? = nil,
        pathSegments: [String],
        queryItems: [FlowLinkQueryItem] = []
    ) {
        self.link = link
        self.scheme = scheme
        self.host = host
        self.port = port
        self.pathSegments = pathSegments
        self.queryItems = queryItems
    }

    /// Parses a URL (its `absoluteString`).
    public init(_ url: URL) {
        self.init(url.absoluteString)
    }

    /// The path for messages: the decoded segments joined by `/`, with a leading `/`.
    public var path: String { "/" + pathSegments.joined(separator: "/") }

    /// The query items as a dictionary; when a name repeats, the last item wins
    /// (`?tab=a&tab=b` gives `tab = "b"`).
    public var query: [String: String] {
        var result: [String: String] = [:]
        for item in queryItems { result[item.name] = item.value }
        return result
    }

    /// Whether the scheme is `http` or `https`, the schemes whose host is a network host.
    public var isWebLink: Bool { scheme.map(Self.webSchemes.contains) ?? false }

    /// The link as given.
    public var description: String { link }

    /// The schemes whose authority is a network host.
    static let webSchemes: Set<String> = ["http", "https"]
}
