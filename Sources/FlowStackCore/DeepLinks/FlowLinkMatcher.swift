import Foundation

/// An ordered list of deep-link patterns with their handlers; the first registered pattern
/// that matches a link wins.
///
/// ```swift
/// var links = FlowLinkMatcher<String>()
/// try links.add("/products/:id", "product")
/// try links.add("/promo/*", "promo")
/// links.match(URL(string: "myapp://products/42?tab=reviews")!)?.parameters
/// // ["id": "42", "tab": "reviews"]
/// ```
///
/// Registration order is never changed; `diagnostics` reports patterns that can never win.
public struct FlowLinkMatcher<Handler> {
    /// The registrations, in order.
    public private(set) var registrations: [FlowLinkRegistration<Handler>] = []

    /// Creates an empty matcher.
    public init() {}

    /// The number of registered patterns.
    public var count: Int { registrations.count }

    /// Whether no pattern is registered.
    public var isEmpty: Bool { registrations.isEmpty }

    /// Parses `pattern` and registers it after the existing ones.
    ///
    /// Duplicate and shadowed patterns are accepted (they are reported by `diagnostics`).
    /// - Parameters:
    ///   - pattern: the pattern, such as `/products/:id` or `/promo/*`.
    ///   - handler: the value returned with a match of this pattern.
    ///   - file: the file that registered the pattern, for diagnostics.
    ///   - line: the line in `file`, for diagnostics.
    /// - Throws: `FlowLinkPatternError` when the pattern cannot be parsed; nothing is registered then.
    public mutating func add(
        _ pattern: String,
        _ handler: Handler,
        file: String? = nil,
        line: Int? = nil
    ) throws(FlowLinkPatternError) {
        add(try FlowLinkPattern(pattern), handler, file: file, line: line)
    }

    /// Registers an already-parsed pattern after the existing ones.
    public mutating func add(_ pattern: FlowLinkPattern, _ handler: Handler, file: String? = nil, line: Int? = nil) {
        let location = file.map { FlowLinkSourceLocation(file: $0, line: line) }
        registrations.append(FlowLinkRegistration(pattern: pattern, handler: handler, location: location))
    }

    /// Removes every registration.
    public mutating func removeAll() {
        registrations.removeAll()
    }

    /// The first registration whose pattern matches the URL, ignoring any policy.
    public func match(_ url: URL) -> FlowLinkMatch<Handler>? {
        match(FlowLinkRequest(url))
    }

    /// The first registration whose pattern matches the link text, ignoring any policy.
    public func match(_ link: String) -> FlowLinkMatch<Handler>? {
        match(FlowLinkRequest(link))
    }

    /// The first registration whose pattern matches the normalized link, ignoring any policy.
    public func match(_ request: FlowLinkRequest) -> FlowLinkMatch<Handler>? {
        let path = request.pathSegments
        guard let index = registrations.firstIndex(where: { $0.pattern.matches(path) }) else { return nil }
        let registration = registrations[index]
        let captured = registration.pattern.match(path) ?? [:]
        let parameters = request.query.merging(captured) { _, pathValue in pathValue }
        return FlowLinkMatch(
            pattern: registration.pattern,
            handler: registration.handler,
            parameters: parameters,
            index: index,
            location: registration.location,
            request: request
        )
    }

    /// Checks the URL against `policy`, then matches it.
    public func resolve(_ url: URL, policy: FlowLinkPolicy = .allowAll) -> FlowLinkResolution<Handler> {
        resolve(FlowLinkRequest(url), policy: policy)
    }

    /// Checks the link text against `policy`, then matches it.
    public func resolve(_ link: String, policy: FlowLinkPolicy = .allowAll) -> FlowLinkResolution<Handler> {
        resolve(FlowLinkRequest(link), policy: policy)
    }

    /// Checks the normalized link against `policy`, then matches it.
    ///
    /// - Returns: `.rejected` with the policy's reason, `.matched` with the first matching
    ///   registration, or `.unhandled` with a reason naming the path and the registered patterns.
    public func resolve(_ request: FlowLinkRequest, policy: FlowLinkPolicy = .allowAll) -> FlowLinkResolution<Handler> {
        if let reason = policy.rejectionReason(for: request) { return .rejected(reason: reason) }
        if let match = match(request) { return .matched(match) }
        return .unhandled(reason: unhandledReason(for: request))
    }

    private func unhandledReason(for request: FlowLinkRequest) -> String {
        let shown = 5
        guard !registrations.isEmpty else {
            return "no deep link pattern matches path '\(request.path)' (no patterns are registered)"
        }
        // Each pattern tried, in order, with why it did not match.
        let tried = registrations.map { registration in
            (registration.pattern, registration.pattern.mismatch(request.pathSegments) ?? "it matches")
        }
        var names = tried.prefix(shown).map { "'\($0.0)': \($0.1)" }.joined(separator: "; ")
        if registrations.count > shown { names += "; and \(registrations.count - shown) more" }
        return "no deep link pattern matches path '\(request.path)' (tried \(names))"
    }
}

extension FlowLinkMatcher: Sendable where Handler: Sendable {}
extension FlowLinkMatcher: Equatable where Handler: Equatable {}
extension FlowLinkMatcher: Hashable where Handler: Hashable {}
