extension FlowLinkPattern {
    /// Matches percent-decoded path segments against the pattern.
    ///
    /// - Parameter pathSegments: the link's path segments, already percent-decoded, with no
    ///   empty segments (as in `FlowLinkRequest.pathSegments`).
    /// - Returns: the captured parameters (the wildcard under `"*"`), or `nil` when the path
    ///   does not match.
    public func match(_ pathSegments: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .wildcard:
                parameters[Self.wildcardKey] = pathSegments[index...].joined(separator: "/")
                return parameters
            case .literal(let text):
                guard index < pathSegments.count, pathSegments[index] == text else { return nil }
            case .parameter(let name):
                guard index < pathSegments.count else { return nil }
                parameters[name] = pathSegments[index]
            }
        }
        return pathSegments.count == segments.count ? parameters : nil
    }

    /// Whether the pattern matches the percent-decoded path segments.
    public func matches(_ pathSegments: [String]) -> Bool {
        match(pathSegments) != nil
    }
}
