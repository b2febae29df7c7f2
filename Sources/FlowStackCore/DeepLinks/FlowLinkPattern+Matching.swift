extension FlowLinkPattern {
    /// Matches percent-decoded path segments against the pattern.
    ///
    /// - Parameter pathSegments: the link's path segments, already percent-decoded, with no
    ///   empty segments (as in `FlowLinkRequest.pathSegments`).
    /// - Returns: the captured parameters (the wildcard under `"*"`), or `nil` when the path
    ///   does not match.
    public func match(_ pathSegments: [String]) -> [String: String]? {
        guard matches(pathSegments) else { return nil }
        var parameters: [String: String] = [:]
        for (index, segment) in segments.enumerated() {
            switch segment {
            case .wildcard:
                parameters[Self.wildcardKey] = pathSegments[index...].joined(separator: "/")
            case .parameter(let name):
                parameters[name] = pathSegments[index]
            case .literal:
                break
            }
        }
        return parameters
    }

    /// Whether the pattern matches the percent-decoded path segments (without capturing anything).
    public func matches(_ pathSegments: [String]) -> Bool {
        guard hasWildcard ? pathSegments.count >= fixedCount : pathSegments.count == fixedCount else {
            return false
        }
        for index in 0..<fixedCount {
            if case .literal(let text) = segments[index], pathSegments[index] != text { return false }
        }
        return true
    }
}
