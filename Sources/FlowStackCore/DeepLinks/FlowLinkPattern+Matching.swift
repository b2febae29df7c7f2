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

    /// Why the pattern does not match the percent-decoded path segments (`segment 1 is
    /// 'order', the pattern wants 'orders'`, `the path has 1 segment, the pattern 2`), or `nil`
    /// when it matches.
    public func mismatch(_ pathSegments: [String]) -> String? {
        func count(_ number: Int) -> String { "\(number) segment\(number == 1 ? "" : "s")" }
        if hasWildcard, pathSegments.count < fixedCount {
            return "the path has \(count(pathSegments.count)), the pattern at least \(fixedCount)"
        }
        if !hasWildcard, pathSegments.count != fixedCount {
            return "the path has \(count(pathSegments.count)), the pattern \(fixedCount)"
        }
        for index in 0..<fixedCount {
            if case .literal(let text) = segments[index], pathSegments[index] != text {
                return "segment \(index + 1) is '\(pathSegments[index])', the pattern wants '\(text)'"
            }
        }
        return nil
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
