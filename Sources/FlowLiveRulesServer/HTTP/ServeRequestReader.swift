import Foundation

/// The end of a connection, from the client, before a request was whole.
package struct ServeConnectionClosed: Error, Sendable {}

/// Reads requests from a stream of bytes: a head within the limits, then the body its framing
/// announces (sized or chunked). What the server's connections read with, and what the
/// grammar fuzz test feeds in process: every refusal is a `ServeHTTPRefusal`.
package final class ServeRequestReader: @unchecked Sendable {
    /// The limits requests are held to.
    package let limits: ServeHTTPLimits
    /// The next bytes of the stream; `nil` at its end.
    private let read: @Sendable () async throws -> [UInt8]?
    /// The bytes read and not yet used.
    private(set) var buffer: [UInt8] = []

    /// A reader of the bytes `read` returns, one call at a time (`nil` at the end of the stream).
    package init(limits: ServeHTTPLimits, read: @escaping @Sendable () async throws -> [UInt8]?) {
        self.limits = limits
        self.read = read
    }

    /// Reads a request's head and the framing of its body; throws `ServeHTTPRefusal` for a
    /// head over the limits or not HTTP/1.1, `ServeConnectionClosed` when the stream ends first.
    package func head() async throws -> (ServeRequestHead, ServeBodyFraming) {
        var scanner = ServeHeadScanner(limits: limits)
        var end: Int?
        while true {
            end = try scanner.scan(buffer)
            if end != nil { break }
            guard try await fill() else { throw ServeConnectionClosed() }
        }
        let headEnd = end ?? 0
        let head = try ServeHeadScanner.parse(buffer[..<headEnd])
        consume(headEnd)
        return (head, try ServeBodyFraming(head))
    }

    /// Refuses (413) a body whose Content-Length passes the limit, before a byte of it is read.
    package func checkLength(_ framing: ServeBodyFraming) throws(ServeHTTPRefusal) {
        if case .length(let length) = framing, length > limits.maximumBodyBytes {
            throw ServeHTTPRefusal(status: 413, message: "the body holds \(length) bytes, more than the limit of \(limits.maximumBodyBytes)")
        }
    }

    /// Reads the body `framing` announces (after `checkLength`).
    package func body(_ framing: ServeBodyFraming) async throws -> Data {
        switch framing {
        case .none: return Data()
        case .length(let length):
            try checkLength(framing)
            return try await take(length)
        case .chunked: return try await chunked()
        }
    }

    /// Waits until at least one byte is buffered; `false` when the client closed.
    func waitForBytes() async throws -> Bool {
        if !buffer.isEmpty { return true }
        return try await fill()
    }

    /// Reads and drops what arrives; the number of bytes (0 at the end of the stream).
    func drop() async throws -> Int {
        buffer.removeAll()
        guard try await fill() else { return 0 }
        defer { buffer.removeAll() }
        return buffer.count
    }

    /// The size on a chunk-size line (RFC 9112: `1*HEXDIG`, then optional extensions after `;`,
    /// which are ignored): `nil` for anything else (a sign, spaces, no digit, more than 16 digits).
    package static func chunkSize(_ line: ArraySlice<UInt8>) -> UInt64? {
        let digits = line.prefix { $0 != UInt8(ascii: ";") }
        guard (1...16).contains(digits.count) else { return nil }
        var size: UInt64 = 0
        for byte in digits {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            size = size << 4 | UInt64(value)  // 16 digits fill 64 bits exactly: no overflow
        }
        return size
    }

    /// Decodes a chunked body, refusing it as soon as its size passes the limit.
    private func chunked() async throws -> Data {
        var body = Data()
        while true {
            let sizeLine = try await line(maximum: 1_024)
            guard let size = Self.chunkSize(sizeLine) else {
                throw ServeHTTPRefusal(status: 400, message: "a chunk size is not 1 to 16 hexadecimal digits")
            }
            if size == 0 { break }
            // Both sides are at most the limit and 2^64 - 1: compare without adding.
            guard size <= UInt64(limits.maximumBodyBytes - min(body.count, limits.maximumBodyBytes)) else {
                throw ServeHTTPRefusal(status: 413, message: "the chunked body passes the limit of \(limits.maximumBodyBytes) bytes")
            }
            body.append(try await take(Int(size)))
            guard try await line(maximum: 0).isEmpty else {
                throw ServeHTTPRefusal(status: 400, message: "a chunk is longer than its size")
            }
        }
        var trailers = 0
        while try await !line(maximum: limits.maximumHeadBytes).isEmpty {
            trailers += 1
            if trailers > limits.maximumHeaderCount {
                throw ServeHTTPRefusal(status: 431, message: "more than \(limits.maximumHeaderCount) trailer lines")
            }
        }
        return body
    }

    /// Reads what has arrived; `false` at the end of the stream.
    private func fill() async throws -> Bool {
        guard let bytes = try await read() else { return false }
        buffer.append(contentsOf: bytes)
        return true
    }

    /// Drops the first `count` buffered bytes.
    private func consume(_ count: Int) {
        buffer.removeFirst(count)
    }

    /// The next `count` bytes.
    private func take(_ count: Int) async throws -> Data {
        while buffer.count < count {
            guard try await fill() else { throw ServeConnectionClosed() }
        }
        let data = Data(buffer[..<count])
        buffer.removeFirst(count)
        return data
    }

    /// The next line without its CRLF (or LF); refused when longer than `maximum` bytes.
    private func line(maximum: Int) async throws -> ArraySlice<UInt8> {
        var searched = 0
        while true {
            if let newline = buffer[searched...].firstIndex(of: 0x0A) {
                var line = buffer[..<newline]
                if line.last == 0x0D { line = line.dropLast() }
                guard line.count <= maximum else { break }
                let result = ArraySlice(Array(line))
                buffer.removeFirst(newline + 1)
                return result
            }
            searched = buffer.count
            guard searched <= maximum + 1 else { break }
            guard try await fill() else { throw ServeConnectionClosed() }
        }
        throw ServeHTTPRefusal(status: 400, message: "a line of the chunked body is too long")
    }
}
