import FlyingSocks
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `ServeHTTPServer` asks about each request.
protocol ServeHTTPHandler: Sendable {
    /// Answers a request from its head alone (unknown path, wrong method, no token), or `nil`
    /// to read its body and call `respond(to:)`. Called before a byte of the body is read.
    func screen(_ head: ServeRequestHead) async -> ServeResponse?
    /// Answers a request whose body was read (within the limits).
    func respond(to request: ServeRequest) async -> ServeResponse
}

/// The HTTP/1.1 server of `flowstack serve`: small, for two endpoints, and built to hold
/// against clients that misbehave.
///
/// Every limit is enforced while reading: a head over `maximumHeadBytes` or with more than
/// `maximumHeaderCount` lines is refused (431) as soon as it is, having cost one look at each
/// byte; a body over `maximumBodyBytes` is refused (413) from its Content-Length before any of
/// it is read, or, chunked, as soon as its chunks pass the limit. A request that does not
/// arrive whole within `requestTimeout`, a connection idle for `idleTimeout` and a response not
/// taken within `writeTimeout` are dropped. An `accept` that fails (no descriptors left) is
/// reported and retried after a short pause, so the server goes on once descriptors free up.
/// Sockets come from FlyingSocks (non-blocking, epoll or kqueue).
final class ServeHTTPServer: Sendable {
    let limits: ServeHTTPLimits
    let handler: any ServeHTTPHandler
    /// Called with a warning to print (accept failures), at most once every few seconds.
    let warn: @Sendable (String) -> Void
    private let listener: Socket
    private let connections = ConnectionCount()

    /// Binds and listens on `address` (port 0: a free one).
    init(address: some SocketAddress, limits: ServeHTTPLimits, handler: any ServeHTTPHandler, warn: @escaping @Sendable (String) -> Void) throws {
        self.limits = limits
        self.handler = handler
        self.warn = warn
        let socket = try Socket(domain: Int32(type(of: address).family), type: .stream)
        do {
            try socket.setValue(true, for: .localAddressReuse)
            try socket.bind(to: address)
            try socket.listen(maxPendingConnection: 128)
        } catch {
            try? socket.close()
            throw error
        }
        listener = socket
    }

    /// The port the server listens on.
    func port() throws -> UInt16 {
        switch try listener.sockname() {
        case .ip4(_, let port), .ip6(_, let port): return port
        default: throw SocketError.unsupportedAddress
        }
    }

    /// Accepts and serves connections until cancelled.
    func run() async throws {
        let pool = SocketPool<Poll>.make(maxEvents: 64)
        try await pool.prepare()
        let polling = Task { try await pool.run() }
        defer { polling.cancel() }
        let listening = try AsyncSocket(socket: listener, pool: pool)
        var backoff = Duration.milliseconds(50)
        var lastWarning: ContinuousClock.Instant?
        while !Task.isCancelled {
            let connection: AsyncSocket
            do {
                connection = try await listening.accept()
            } catch is CancellationError {
                break
            } catch {
                let now = ContinuousClock.now
                if lastWarning.map({ now - $0 >= .seconds(5) }) ?? true {
                    lastWarning = now
                    warn(Self.describeAcceptFailure(error))
                }
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, .seconds(1))
                continue
            }
            backoff = .milliseconds(50)
            guard connections.enter(limit: limits.maximumConnections) else {
                try? connection.close()
                continue
            }
            Task {
                await self.serve(connection)
                self.connections.leave()
            }
        }
        try? listener.close()
    }

    static func describeAcceptFailure(_ error: any Error) -> String {
        if case SocketError.failed(_, let code, let message) = error, code == EMFILE || code == ENFILE {
            return "cannot accept connections: \(message) (too many open connections or files); "
                + "retrying as connections close (raise the limit with `ulimit -n`)"
        }
        return "cannot accept a connection (\(error.localizedDescription)); retrying"
    }

    // MARK: - One connection

    /// Serves one connection's requests, under a deadline that a watchdog enforces, then closes it.
    ///
    /// At the deadline the watchdog shuts the socket down rather than cancelling the reader:
    /// the read or write waiting on it then ends through the socket pool's usual path, and the
    /// descriptor is closed only once nothing waits on it (a descriptor closed while the pool
    /// still watches it could leave a later connection that reuses its number unwatched).
    private func serve(_ socket: AsyncSocket) async {
        let deadline = ConnectionDeadline()
        deadline.set(limits.idleTimeout)
        let descriptor = socket.socket.file.rawValue
        let watchdog = Task {
            await deadline.wait()
            guard !Task.isCancelled else { return }
            _ = shutdown(descriptor, Int32(SHUT_RDWR))
        }
        await serveRequests(on: socket, deadline: deadline)
        watchdog.cancel()
        _ = await watchdog.value
        try? socket.close()
    }

    private func serveRequests(on socket: AsyncSocket, deadline: ConnectionDeadline) async {
        let reader = ConnectionReader(socket: socket)
        while !Task.isCancelled {
            deadline.set(limits.idleTimeout)
            do {
                guard try await reader.waitForBytes() else { return }
            } catch {
                return
            }
            deadline.set(limits.requestTimeout)
            do {
                let keepOpen = try await serveOneRequest(reader: reader, deadline: deadline)
                if !keepOpen { return }
            } catch let refusal as ServeHTTPRefusal {
                deadline.set(limits.writeTimeout)
                try? await socket.write(refusal.response.encoded(closing: true))
                await lingeringClose(reader: reader, deadline: deadline)
                return
            } catch {
                return
            }
        }
    }

    /// Reads, answers and writes one request; whether the connection stays open.
    private func serveOneRequest(reader: ConnectionReader, deadline: ConnectionDeadline) async throws -> Bool {
        var scanner = ServeHeadScanner(limits: limits)
        var end: Int?
        while true {
            end = try scanner.scan(reader.buffer)
            if end != nil { break }
            guard try await reader.fill() else { throw ConnectionClosed() }
        }
        let headEnd = end ?? 0
        let head = try ServeHeadScanner.parse(reader.buffer[..<headEnd])
        reader.consume(headEnd)
        let framing = try ServeBodyFraming(head)
        if let answer = await handler.screen(head) {
            // The body was not read: the connection cannot carry another request.
            let closing = framing != .none || !head.keepsAlive
            try await write(answer, closing: closing, to: reader.socket, deadline: deadline)
            if closing, framing != .none { await lingeringClose(reader: reader, deadline: deadline) }
            return !closing
        }
        if case .length(let length) = framing, length > limits.maximumBodyBytes {
            throw ServeHTTPRefusal(status: 413, message: "the body holds \(length) bytes, more than the limit of \(limits.maximumBodyBytes)")
        }
        if framing != .none, head.header("expect")?.lowercased() == "100-continue" {
            try await reader.socket.write(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        let body: Data
        switch framing {
        case .none: body = Data()
        case .length(let length): body = try await reader.take(length)
        case .chunked: body = try await readChunked(reader: reader)
        }
        deadline.set(nil)
        let response = await handler.respond(to: ServeRequest(head: head, body: body))
        let closing = !head.keepsAlive
        try await write(response, closing: closing, to: reader.socket, deadline: deadline)
        return !closing
    }

    private func write(_ response: ServeResponse, closing: Bool, to socket: AsyncSocket, deadline: ConnectionDeadline) async throws {
        deadline.set(limits.writeTimeout)
        try await socket.write(response.encoded(closing: closing))
    }

    /// Decodes a chunked body, refusing it as soon as its size passes the limit.
    private func readChunked(reader: ConnectionReader) async throws -> Data {
        var body = Data()
        while true {
            let line = try await reader.line(maximum: 1_024)
            let sizeText = line.prefix { $0 != 0x3B }.filter { $0 != 0x20 && $0 != 0x09 }
            guard !sizeText.isEmpty, sizeText.count <= 16,
                  let size = Int(String(decoding: sizeText, as: UTF8.self), radix: 16), size >= 0 else {
                throw ServeHTTPRefusal(status: 400, message: "a chunk size is not a hexadecimal number")
            }
            if size == 0 { break }
            guard body.count + size <= limits.maximumBodyBytes else {
                throw ServeHTTPRefusal(status: 413, message: "the chunked body passes the limit of \(limits.maximumBodyBytes) bytes")
            }
            body.append(try await reader.take(size))
            guard try await reader.line(maximum: 0).isEmpty else {
                throw ServeHTTPRefusal(status: 400, message: "a chunk is longer than its size")
            }
        }
        var trailers = 0
        while try await !reader.line(maximum: limits.maximumHeadBytes).isEmpty {
            trailers += 1
            if trailers > limits.maximumHeaderCount {
                throw ServeHTTPRefusal(status: 431, message: "more than \(limits.maximumHeaderCount) trailer lines")
            }
        }
        return body
    }

    /// After an answer sent before the request was read whole: stops sending, then reads and
    /// drops what the client still sends for a moment (closing with unread bytes would reset
    /// the connection, and the client would lose the answer). Ends when the client closes, and
    /// after 2 seconds or 64 MiB at most.
    private func lingeringClose(reader: ConnectionReader, deadline: ConnectionDeadline) async {
        _ = shutdown(reader.socket.socket.file.rawValue, Int32(SHUT_WR))
        deadline.set(min(limits.requestTimeout, .seconds(2)))
        var dropped = 0
        while dropped < 64 << 20 {
            guard let count = try? await reader.drop(), count > 0 else { return }
            dropped += count
        }
    }
}

/// The end of a connection, from the client.
private struct ConnectionClosed: Error {}

/// The bytes read from a connection and not yet used.
private final class ConnectionReader: @unchecked Sendable {
    let socket: AsyncSocket
    private(set) var buffer: [UInt8] = []

    init(socket: AsyncSocket) { self.socket = socket }

    /// Reads what has arrived (up to 16 KiB); `false` at the end of the stream.
    func fill() async throws -> Bool {
        do {
            buffer.append(contentsOf: try await socket.read(atMost: 16 << 10))
            return true
        } catch SocketError.disconnected {
            return false
        }
    }

    /// Waits until at least one byte is buffered; `false` when the client closed.
    func waitForBytes() async throws -> Bool {
        if !buffer.isEmpty { return true }
        return try await fill()
    }

    /// Drops the first `count` buffered bytes.
    func consume(_ count: Int) {
        buffer.removeFirst(count)
    }

    /// The next `count` bytes.
    func take(_ count: Int) async throws -> Data {
        while buffer.count < count {
            guard try await fill() else { throw ConnectionClosed() }
        }
        let data = Data(buffer[..<count])
        buffer.removeFirst(count)
        return data
    }

    /// The next line without its CRLF (or LF); refused when longer than `maximum` bytes.
    func line(maximum: Int) async throws -> ArraySlice<UInt8> {
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
            guard try await fill() else { throw ConnectionClosed() }
        }
        throw ServeHTTPRefusal(status: 400, message: "a line of the chunked body is too long")
    }

    /// Reads and drops what arrives; the number of bytes (0 at the end of the stream).
    func drop() async throws -> Int {
        buffer.removeAll()
        guard try await fill() else { return 0 }
        defer { buffer.removeAll() }
        return buffer.count
    }
}

/// When the connection's current step must be over; a watchdog cancels the connection then.
private final class ConnectionDeadline: @unchecked Sendable {
    private let lock = NSLock()
    private var instant: ContinuousClock.Instant?

    /// Sets the deadline `duration` from now, or none.
    func set(_ duration: Duration?) {
        lock.lock()
        instant = duration.map { ContinuousClock.now + $0 }
        lock.unlock()
    }

    private var current: ContinuousClock.Instant? {
        lock.lock()
        defer { lock.unlock() }
        return instant
    }

    /// Returns once the deadline has passed (or when cancelled).
    func wait() async {
        while !Task.isCancelled {
            let now = ContinuousClock.now
            guard let deadline = current else {
                try? await Task.sleep(for: .seconds(1))
                continue
            }
            if deadline <= now { return }
            try? await Task.sleep(until: deadline, clock: .continuous)
        }
    }
}

/// How many connections are open.
private final class ConnectionCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// Counts one more connection unless `limit` are open already.
    func enter(limit: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard count < limit else { return false }
        count += 1
        return true
    }

    func leave() {
        lock.lock()
        count -= 1
        lock.unlock()
    }
}
