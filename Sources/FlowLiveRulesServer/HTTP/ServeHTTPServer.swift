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
/// taken within `writeTimeout` are dropped. At the connection cap (`ServeHTTPLimits`, below
/// the descriptor limit), the oldest idle connection is shed before another is accepted
/// (`ConnectionRegistry`). An `accept` that fails
/// (no descriptors left) sheds one too, is reported and retried after a short pause, so the
/// server goes on once descriptors free up.
/// Sockets come from FlyingSocks (non-blocking, epoll or kqueue).
final class ServeHTTPServer: Sendable {
    let limits: ServeHTTPLimits
    let handler: any ServeHTTPHandler
    /// Called with a warning to print (accept failures), at most once every few seconds.
    let warn: @Sendable (String) -> Void
    private let listener: Socket
    private let connections = ConnectionRegistry()

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
        let descriptors = ServeDescriptors.raiseLimit()
        let cap = limits.connectionCap(descriptors: descriptors)
        var backoff = Duration.milliseconds(50)
        var lastWarning: ContinuousClock.Instant?
        while !Task.isCancelled {
            // Never past the cap, shed connections included until their descriptors close:
            // descriptors run out for the rest of the process never (libdispatch's worker
            // monitor opens /proc/<tid>/stat each second and traps when it cannot).
            if await connections.waitForRoom(limit: cap), lastWarning.map({ ContinuousClock.now - $0 >= .seconds(5) }) ?? true {
                lastWarning = ContinuousClock.now
                warn(describeCap(cap, descriptors: descriptors))
            }
            let connection: AsyncSocket
            do {
                connection = try await listening.accept()
            } catch is CancellationError {
                break
            } catch {
                // Out of descriptors: the oldest connection not serving an authorized request
                // makes room (an authorized client waiting in the listen queue gets in).
                if Self.isOutOfDescriptors(error) { connections.shedOne() }
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
            let id = connections.admit(connection.socket.file.rawValue)
            Task { await self.serve(connection, id: id) }
        }
        try? listener.close()
    }

    /// Whether `accept` failed for lack of descriptors (the process's or the system's).
    static func isOutOfDescriptors(_ error: any Error) -> Bool {
        if case SocketError.failed(_, let code, _) = error { return code == EMFILE || code == ENFILE }
        return false
    }

    /// The warning at the connection cap.
    func describeCap(_ cap: Int, descriptors: Int) -> String {
        let why = cap < limits.maximumConnections
            ? "the most \(descriptors) open files allow (raise the limit with `ulimit -n`)" : "the most serve holds"
        return "cannot accept more connections: \(cap) are open, \(why); closing the oldest idle ones first"
    }

    static func describeAcceptFailure(_ error: any Error) -> String {
        if case SocketError.failed(_, _, let message) = error, isOutOfDescriptors(error) {
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
    private func serve(_ socket: AsyncSocket, id: UInt64) async {
        let deadline = ConnectionDeadline()
        deadline.set(limits.idleTimeout)
        let descriptor = socket.socket.file.rawValue
        let watchdog = Task {
            await deadline.wait()
            guard !Task.isCancelled else { return }
            _ = shutdown(descriptor, Int32(SHUT_RDWR))
        }
        await serveRequests(on: socket, id: id, deadline: deadline)
        watchdog.cancel()
        _ = await watchdog.value
        // Out of the registry before the descriptor closes: a shed never reaches a number reused.
        connections.leave(id)
        try? socket.close()
        connections.closed()
    }

    private func serveRequests(on socket: AsyncSocket, id: UInt64, deadline: ConnectionDeadline) async {
        let reader = ServeRequestReader(limits: limits) {
            do { return try await socket.read(atMost: 16 << 10) } catch SocketError.disconnected { return nil }
        }
        while !Task.isCancelled {
            deadline.set(limits.idleTimeout)
            do {
                guard try await reader.waitForBytes() else { return }
                connections.mark(id, .reading)
            } catch {
                return
            }
            deadline.set(limits.requestTimeout)
            do {
                let keepOpen = try await serveOneRequest(on: socket, reader: reader, id: id, deadline: deadline)
                connections.mark(id, .idle)
                if !keepOpen { return }
            } catch let refusal as ServeHTTPRefusal {
                deadline.set(limits.writeTimeout)
                try? await socket.write(refusal.response.encoded(closing: true))
                await lingeringClose(socket, reader: reader, deadline: deadline)
                return
            } catch {
                return
            }
        }
    }

    /// Reads, answers and writes one request; whether the connection stays open.
    private func serveOneRequest(on socket: AsyncSocket, reader: ServeRequestReader, id: UInt64, deadline: ConnectionDeadline) async throws -> Bool {
        let (head, framing) = try await reader.head()
        if let answer = await handler.screen(head) {
            // The body was not read: the connection cannot carry another request.
            let closing = framing != .none || !head.keepsAlive
            try await write(answer, closing: closing, to: socket, deadline: deadline)
            if closing, framing != .none { await lingeringClose(socket, reader: reader, deadline: deadline) }
            return !closing
        }
        // Authorized from here on (its long poll included): never shed while others are not.
        connections.mark(id, .authorized)
        try reader.checkLength(framing)
        if framing != .none, head.header("expect")?.lowercased() == "100-continue" {
            try await socket.write(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8))
        }
        let body = try await reader.body(framing)
        deadline.set(nil)
        let response = await handler.respond(to: ServeRequest(head: head, body: body))
        let closing = !head.keepsAlive
        try await write(response, closing: closing, to: socket, deadline: deadline)
        return !closing
    }

    private func write(_ response: ServeResponse, closing: Bool, to socket: AsyncSocket, deadline: ConnectionDeadline) async throws {
        deadline.set(limits.writeTimeout)
        try await socket.write(response.encoded(closing: closing))
    }

    /// After an answer sent before the request was read whole: stops sending, then reads and
    /// drops what the client still sends for a moment (closing with unread bytes would reset
    /// the connection, and the client would lose the answer). Ends when the client closes, and
    /// after 2 seconds or 64 MiB at most.
    private func lingeringClose(_ socket: AsyncSocket, reader: ServeRequestReader, deadline: ConnectionDeadline) async {
        _ = shutdown(socket.socket.file.rawValue, Int32(SHUT_WR))
        deadline.set(min(limits.requestTimeout, .seconds(2)))
        var dropped = 0
        while dropped < 64 << 20 {
            guard let count = try? await reader.drop(), count > 0 else { return }
            dropped += count
        }
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

/// The open connections, oldest first, and how far each is in its request.
///
/// The server accepts only while fewer than the cap are open, counting a shed connection until
/// its descriptor is closed. At the cap it sheds the oldest idle connection (between requests,
/// nothing sent: not even bytes the server has yet to read), else the oldest still sending a
/// head that was not screened, and waits for a descriptor to close; one serving an authorized
/// request (a device's long poll included) is never shed. So a client that opens connections
/// and sends nothing, or nothing authorized, cannot keep an authorized request out of the
/// listen queue for long. When every connection is serving an authorized request, the server
/// waits until one ends.
private final class ConnectionRegistry: @unchecked Sendable {
    /// How far a connection is.
    enum Stage {
        /// Between requests (or before the first).
        case idle
        /// Its request's head is arriving and was not screened yet.
        case reading
        /// Serving a request that passed screening (authorized).
        case authorized
    }

    private struct Entry {
        var stage: Stage
        let descriptor: Int32
    }

    private let lock = NSLock()
    private var entries: [UInt64: Entry] = [:]
    private var nextID: UInt64 = 0
    /// Descriptors of connections not closed yet (shed ones included).
    private var open = 0
    /// The accept loop, waiting for a descriptor to close.
    private var waiter: CheckedContinuation<Void, Never>?

    /// Returns once fewer than `limit` connections hold a descriptor; at the cap, sheds one
    /// first (if any is not authorized) and waits for a descriptor to close. Whether it was at
    /// the cap.
    func waitForRoom(limit: Int) async -> Bool {
        var waited = false
        while true {
            let full: Bool = locked {
                guard open >= limit else { return false }
                _ = shedLocked()
                return true
            }
            guard full else { return waited }
            waited = true
            await withCheckedContinuation { continuation in
                locked {
                    if open < limit { continuation.resume() } else { waiter = continuation }
                }
            }
        }
    }

    /// Registers an accepted connection; its id.
    func admit(_ descriptor: Int32) -> UInt64 {
        locked {
            nextID += 1
            open += 1
            entries[nextID] = Entry(stage: .idle, descriptor: descriptor)
            return nextID
        }
    }

    /// Sheds one connection not serving an authorized request, if one is open.
    func shedOne() {
        locked { _ = shedLocked() }
    }

    /// Records how far connection `id` is.
    func mark(_ id: UInt64, _ stage: Stage) {
        locked { entries[id]?.stage = stage }
    }

    /// Forgets connection `id` (shed or not), before its descriptor is closed.
    func leave(_ id: UInt64) {
        locked { _ = entries.removeValue(forKey: id) }
    }

    /// Counts a connection's descriptor closed, waking the accept loop.
    func closed() {
        let waiting: CheckedContinuation<Void, Never>? = locked {
            open -= 1
            defer { waiter = nil }
            return waiter
        }
        waiting?.resume()
    }

    /// Shuts down the oldest idle connection with nothing waiting to be read, else the oldest
    /// not authorized; whether one was. Under the lock: `leave`, called before a descriptor
    /// closes, cannot pass it, so a shutdown never reaches a number reused by another connection.
    private func shedLocked() -> Bool {
        let candidates = entries.filter { $0.value.stage != .authorized }.sorted { $0.key < $1.key }
        guard let victim = candidates.first(where: { $0.value.stage == .idle && Self.nothingToRead($0.value.descriptor) })
            ?? candidates.first else { return false }
        entries.removeValue(forKey: victim.key)
        _ = shutdown(victim.value.descriptor, Int32(SHUT_RDWR))
        return true
    }

    /// Runs `body` holding the lock.
    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// Whether no byte waits unread on `descriptor` (a request the server has not read yet).
    private static func nothingToRead(_ descriptor: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)
    }
}

/// The process's limit on open descriptors, which bounds the connections `serve` holds.
enum ServeDescriptors {
    /// Raises the soft limit on open files towards the hard limit (to 4,096 at most: macOS
    /// starts a process at 256) and returns the soft limit now in force.
    static func raiseLimit() -> Int {
        #if os(Linux)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 256 }
        let wanted = min(limit.rlim_max, 4_096)
        if limit.rlim_cur < wanted {
            var raised = limit
            raised.rlim_cur = wanted
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return Int(min(limit.rlim_cur, 1 << 30))
    }
}
