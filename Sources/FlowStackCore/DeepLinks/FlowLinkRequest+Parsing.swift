extension FlowLinkRequest {
    /// Parses a link such as `myapp://products/42?tab=reviews` or `https://example.com/a/b`.
    ///
    /// Parsing never fails: text that is not a well-formed URL is read as leniently as
    /// possible (a string without a scheme is a path). See the type's documentation for
    /// the normalization rules.
    public init(_ link: String) {
        var bytes = Array(link.utf8)
        if let hash = bytes.firstIndex(of: UInt8(ascii: "#")) { bytes.removeSubrange(hash...) }

        var rest = bytes[...]
        let scheme = Self.takeScheme(&rest)

        var authority: ArraySlice<UInt8>?
        if rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? rest.endIndex
            authority = rest[..<end]
            rest = rest[end...]
        }

        let queryStart = rest.firstIndex(of: UInt8(ascii: "?"))
        let rawPath = rest[..<(queryStart ?? rest.endIndex)]
        let rawQuery = queryStart.map { rest[rest.index(after: $0)...] }

        var segments = Self.pathSegments(rawPath)
        var host: String?
        var port: Int?
        if let authority {
            let isNetworkHost = scheme.map(Self.webSchemes.contains) ?? true
            if isNetworkHost {
                (host, port) = Self.hostAndPort(authority)
            } else if !authority.isEmpty {
                segments.insert(FlowLinkPercentDecoding.decode(authority), at: 0)
            }
        }

        self.init(
            link: link,
            scheme: scheme,
            host: host,
            port: port,
            pathSegments: segments,
            queryItems: rawQuery.map(Self.queryItems) ?? []
        )
    }

    /// Removes and returns a leading `scheme:` (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`).
    private static func takeScheme(_ rest: inout ArraySlice<UInt8>) -> String? {
        guard let first = rest.first, isASCIILetter(first) else { return nil }
        for index in rest.indices.dropFirst() {
            let byte = rest[index]
            if byte == UInt8(ascii: ":") {
                let scheme = String(decoding: rest[..<index], as: UTF8.self).lowercased()
                rest = rest[rest.index(after: index)...]
                return scheme
            }
            let allowed = isASCIILetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            if !allowed { return nil }
        }
        return nil
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// Splits a raw path on `/`, resolves unencoded dot segments, then decodes each segment.
    private static func pathSegments(_ rawPath: ArraySlice<UInt8>) -> [String] {
        var kept: [ArraySlice<UInt8>] = []
        for part in rawPath.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            if part.elementsEqual([UInt8(ascii: ".")]) { continue }
            if part.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
                _ = kept.popLast()
                continue
            }
            kept.append(part)
        }
        return kept.map(FlowLinkPercentDecoding.decode)
    }

    /// Reads the host (lowercased, decoded; `nil` when empty) and port of a network authority,
    /// dropping any user info.
    private static func hostAndPort(_ authority: ArraySlice<UInt8>) -> (String?, Int?) {
        var hostPort = authority
        if let at = hostPort.lastIndex(of: UInt8(ascii: "@")) { hostPort = hostPort[hostPort.index(after: at)...] }
        var hostBytes = hostPort
        var portBytes: ArraySlice<UInt8> = []
        let searchFrom = hostPort.first == UInt8(ascii: "[")
            ? (hostPort.firstIndex(of: UInt8(ascii: "]")) ?? hostPort.endIndex)
            : hostPort.startIndex
        if let colon = hostPort[searchFrom...].lastIndex(of: UInt8(ascii: ":")) {
            hostBytes = hostPort[..<colon]
            portBytes = hostPort[hostPort.index(after: colon)...]
        }
        let host = FlowLinkPercentDecoding.decode(hostBytes).lowercased()
        let port = Int(String(decoding: portBytes, as: UTF8.self))
        return (host.isEmpty ? nil : host, port)
    }

    /// Splits a raw query on `&` and each item on its first `=`, decoding names and values.
    private static func queryItems(_ rawQuery: ArraySlice<UInt8>) -> [FlowLinkQueryItem] {
        rawQuery.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).compactMap { item in
            let equals = item.firstIndex(of: UInt8(ascii: "="))
            let name = FlowLinkPercentDecoding.decode(item[..<(equals ?? item.endIndex)])
            let value = equals.map { FlowLinkPercentDecoding.decode(item[item.index(after: $0)...]) } ?? ""
            return name.isEmpty ? nil : FlowLinkQueryItem(name: name, value: value)
        }
    }
}
