/// Which links are accepted at all, before any pattern is tried: the manifest's
/// `links = { schemes = {...}, hosts = {...} }`.
///
/// - `allowedSchemes` limits the scheme (`myapp`, `https`); a link with no scheme is
///   rejected when the list is not empty.
/// - `allowedHosts` limits the host of web links (`http`, `https`, and scheme-less
///   `//host/...` links); custom-scheme links have no host (their authority is a path
///   segment), so the list does not apply to them. Hosts are compared exactly, without
///   subdomain wildcards.
/// - An empty list means "anything". Entries are compared case-insensitively; a scheme may
///   be written with a trailing `:` or `://`.
public struct FlowLinkPolicy: Hashable, Sendable {
    /// The accepted schemes, lowercased, in the order given; empty accepts every scheme.
    public let allowedSchemes: [String]
    /// The accepted web hosts, lowercased, in the order given; empty accepts every host.
    public let allowedHosts: [String]

    /// A policy that accepts every link.
    public static let allowAll = FlowLinkPolicy()

    /// Creates a policy; empty lists accept anything.
    public init(allowedSchemes: [String] = [], allowedHosts: [String] = []) {
        self.allowedSchemes = Self.normalized(allowedSchemes.map { Self.trimmingSchemeSuffix($0.trimmingWhitespace()) })
        self.allowedHosts = Self.normalized(allowedHosts)
    }

    /// Why the policy refuses `request`, or `nil` when it is accepted.
    ///
    /// Reasons read like `scheme 'ftp' is not allowed (allowed: myapp, https)` or
    /// `host 'evil.com' is not allowed (allowed: example.com)`.
    public func rejectionReason(for request: FlowLinkRequest) -> String? {
        if !allowedSchemes.isEmpty {
            guard let scheme = request.scheme else {
                return "link '\(request.link)' has no scheme (allowed: \(Self.list(allowedSchemes)))"
            }
            guard allowedSchemes.contains(scheme) else {
                return "scheme '\(scheme)' is not allowed (allowed: \(Self.list(allowedSchemes)))"
            }
        }
        if !allowedHosts.isEmpty, request.isWebLink || request.host != nil {
            guard let host = request.host else {
                return "link '\(request.link)' has no host (allowed: \(Self.list(allowedHosts)))"
            }
            guard allowedHosts.contains(host) else {
                return "host '\(host)' is not allowed (allowed: \(Self.list(allowedHosts)))"
            }
        }
        return nil
    }

    /// Whether the policy accepts `request`.
    public func allows(_ request: FlowLinkRequest) -> Bool {
        rejectionReason(for: request) == nil
    }

    private static func list(_ entries: [String]) -> String {
        entries.joined(separator: ", ")
    }

    private static func trimmingSchemeSuffix(_ scheme: String) -> String {
        for suffix in ["://", ":"] where scheme.hasSuffix(suffix) {
            return String(scheme.dropLast(suffix.count))
        }
        return scheme
    }

    /// Trims, lowercases, drops empty entries and repeats, keeping the first occurrence's order.
    private static func normalized(_ entries: [String]) -> [String] {
        var seen: Set<String> = []
        return entries
            .map { $0.trimmingWhitespace().lowercased() }
            .filter { !$0.isEmpty && seen.insert($0).inserted }
    }
}

extension String {
    /// The string without leading and trailing whitespace (Unicode whitespace properties).
    fileprivate func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
