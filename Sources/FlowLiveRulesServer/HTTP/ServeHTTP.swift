import FlowLiveRules
import Foundation

/// The limits of `flowstack serve`'s HTTP server, each enforced while the bytes arrive.
package struct ServeHTTPLimits: Sendable {
    /// The largest request head (request line and headers), in bytes; more is refused with 431.
    package var maximumHeadBytes = 16 << 10
    /// The most header lines in one request (or trailer lines after a chunked body); more is 431.
    package var maximumHeaderCount = 64
    /// The largest request body, whether sized by Content-Length or chunked; more is 413.
    package var maximumBodyBytes = FlowLiveRulesProtocol.maximumBodyBytes
    /// How long a request may take from its first byte to the end of its body.
    package var requestTimeout: Duration = .seconds(10)
    /// How long a connection may stay open without a request (before its first, and between two).
    package var idleTimeout: Duration = .seconds(30)
    /// How long writing one response may take.
    package var writeTimeout: Duration = .seconds(60)
    /// The most connections held at once. At the cap a new connection sheds the oldest one not
    /// serving an authorized request (idle, or still sending its head); when every one is, the
    /// new one is closed as soon as it is accepted.
    package var maximumConnections = 1_024

    /// Descriptors kept free for everything but connections (the listener, the event queue,
    /// standard streams, the watcher, the files read on a save).
    static let reservedDescriptors = 48

    /// The limits above, each at its default.
    package init() {}

    /// The connection cap for a process allowed `descriptors` open files: what is left after
    /// the reserve, between 8 and `maximumConnections`.
    func connectionCap(descriptors: Int) -> Int {
        max(8, min(maximumConnections, descriptors - Self.reservedDescriptors))
    }
}

/// A request line and its headers: everything known before the body is read.
package struct ServeRequestHead: Sendable {
    /// The method, as sent (`GET`, `POST`).
    package var method: String
    /// The path, percent-encoded as sent, without the query.
    package var path: String
    /// The query's fields (the first of a repeated name wins), percent-decoded.
    package var query: [String: String]
    /// Whether the client speaks HTTP/1.0 (no keep-alive unless asked, no chunked bodies).
    package var isHTTP10: Bool
    /// The headers in order, names lowercased.
    package var headers: [(name: String, value: String)]

    /// The first value of a header (`name` lowercased).
    package func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// Whether the client asked to keep the connection open after this request.
    package var keepsAlive: Bool {
        let connection = header("connection")?.lowercased() ?? ""
        let tokens = connection.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return isHTTP10 ? tokens.contains("keep-alive") : !tokens.contains("close")
    }
}

/// A whole request: its head and its body.
struct ServeRequest: Sendable {
    var head: ServeRequestHead
    var body: Data
}

/// A response `flowstack serve` sends.
struct ServeResponse: Sendable {
    var status: Int
    var headers: [(name: String, value: String)] = []
    var body = Data()

    /// A plain-text response.
    static func text(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> ServeResponse {
        ServeResponse(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers, body: Data(text.utf8))
    }

    /// The bytes on the wire; `Connection: close` when `closing`.
    func encoded(closing: Bool) -> Data {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n"
        if closing { head += "Connection: close\r\n" }
        head += "\r\n"
        var data = Data(head.utf8)
        data.append(body)
        return data
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 204: return "No Content"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 431: return "Request Header Fields Too Large"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        default: return "Status \(status)"
        }
    }
}

/// A request the server refuses before answering it: the status and what to say. The
/// connection is closed after the answer, since the rest of the request was not read.
package struct ServeHTTPRefusal: Error, Sendable {
    /// The status answered: 400, 413, 414, 431, or 501 for a transfer coding other than chunked.
    package let status: Int
    /// What is wrong, for the client.
    package let message: String

    var response: ServeResponse { .text(status, message + "\n") }
}

/// Finds the end of a request head in bytes as they arrive, counting lines and bytes on the
/// way: each byte is looked at once, and a head over the limits is refused as soon as it is.
struct ServeHeadScanner {
    let limits: ServeHTTPLimits
    /// Where scanning resumes (every byte before it was seen).
    private var scanned = 0
    /// Where the current line starts.
    private var lineStart = 0
    /// Complete lines seen (the request line included).
    private var lines = 0

    init(limits: ServeHTTPLimits) { self.limits = limits }

    /// The index just past the blank line that ends the head, or `nil` when more bytes are
    /// needed. Call again with the same buffer grown; throws when a limit is passed.
    mutating func scan(_ buffer: [UInt8]) throws(ServeHTTPRefusal) -> Int? {
        var index = scanned
        while index < buffer.count {
            if buffer[index] == 0x0A {
                let length = index - lineStart - (index > lineStart && buffer[index - 1] == 0x0D ? 1 : 0)
                if length == 0 {
                    if lines > 0 { return index + 1 }
                    // Blank lines before a request line are ignored (RFC 9112 section 2.2).
                } else {
                    lines += 1
                    if lines > limits.maximumHeaderCount + 1 {
                        throw ServeHTTPRefusal(status: 431, message: "more than \(limits.maximumHeaderCount) header lines")
                    }
                }
                lineStart = index + 1
            }
            index += 1
            if index > limits.maximumHeadBytes {
                throw lines == 0
                    ? ServeHTTPRefusal(status: 414, message: "the request line is longer than \(limits.maximumHeadBytes) bytes")
                    : ServeHTTPRefusal(status: 431, message: "the request headers are longer than \(limits.maximumHeadBytes) bytes")
            }
        }
        scanned = index
        return nil
    }

    /// Parses a complete head (the bytes before the index `scan` returned).
    static func parse(_ bytes: ArraySlice<UInt8>) throws(ServeHTTPRefusal) -> ServeRequestHead {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line -> ArraySlice<UInt8> in
            line.last == 0x0D ? line.dropLast() : line
        }
        while lines.first?.isEmpty == true { lines.removeFirst() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first else { throw ServeHTTPRefusal(status: 400, message: "no request line") }
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, let method = token(parts[0]), let version = text(parts[2]),
              version == "HTTP/1.1" || version == "HTTP/1.0", let target = text(parts[1]), target.hasPrefix("/") else {
            throw ServeHTTPRefusal(status: 400, message: "send a request line such as GET /v1/rules HTTP/1.1")
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: 0x3A), let name = token(line[line.startIndex..<colon]) else {
                throw ServeHTTPRefusal(status: 400, message: "a header line is not NAME: VALUE")
            }
            guard let value = text(line[(colon + 1)...]) else {
                throw ServeHTTPRefusal(status: 400, message: "the header \(name) holds control characters")
            }
            headers.append((name.lowercased(), value.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))))
        }
        let pathEnd = target.firstIndex(of: "?") ?? target.endIndex
        var query: [String: String] = [:]
        if pathEnd < target.endIndex {
            for field in target[target.index(after: pathEnd)...].split(separator: "&") {
                let pair = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(pair[0]).removingPercentEncoding ?? String(pair[0])
                let value = pair.count > 1 ? (String(pair[1]).removingPercentEncoding ?? String(pair[1])) : ""
                if query[name] == nil { query[name] = value }
            }
        }
        return ServeRequestHead(
            method: method, path: String(target[..<pathEnd]), query: query, isHTTP10: version == "HTTP/1.0", headers: headers)
    }

    /// A token (RFC 9110 section 5.6.2), or `nil` when the bytes are not one.
    private static func token(_ bytes: ArraySlice<UInt8>) -> String? {
        guard !bytes.isEmpty, bytes.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || tokenSymbols.contains($0) }) else {
            return nil
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The symbols a token may hold besides letters and digits.
    private static let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)

    /// Field text: no control characters but tab.
    private static func text(_ bytes: ArraySlice<UInt8>) -> String? {
        guard !bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// How a request's body is framed, read from its head.
package enum ServeBodyFraming: Equatable, Sendable {
    /// No body.
    case none
    /// A body of this many bytes (Content-Length).
    case length(Int)
    /// A chunked body (Transfer-Encoding: chunked).
    case chunked

    /// The framing `head` announces; refuses what is ambiguous or unsupported.
    init(_ head: ServeRequestHead) throws(ServeHTTPRefusal) {
        let lengths = head.headers.filter { $0.name == "content-length" }.map(\.value)
        let encodings = head.headers.filter { $0.name == "transfer-encoding" }.map(\.value)
        if !encodings.isEmpty {
            guard lengths.isEmpty else {
                throw ServeHTTPRefusal(status: 400, message: "send Content-Length or Transfer-Encoding, not both")
            }
            let codings = encodings.joined(separator: ",").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard codings == ["chunked"], !head.isHTTP10 else {
                throw ServeHTTPRefusal(status: 501, message: "the only transfer coding understood is chunked")
            }
            self = .chunked
            return
        }
        guard let first = lengths.first else {
            self = .none
            return
        }
        guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.count <= 18,
              first.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(first) else {
            throw ServeHTTPRefusal(status: 400, message: "Content-Length is not one decimal number")
        }
        self = length == 0 ? .none : .length(length)
    }
}
