import FlowStackTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP server on 127.0.0.1 that answers every request with a 200: in full, or (stalled)
/// with its headers only (a `Content-Length` of 1000 and then nothing, holding the connection
/// open until `stop()`).
final class LoopbackHTTPServer: @unchecked Sendable {
    /// How the server answers.
    enum Answer {
        /// The headers and the whole 2-byte body.
        case complete
        /// The headers, then nothing.
        case stalled
    }

    let port: Int
    private let answer: Answer
    private let listener: Int32
    private let lock = NSLock()
    private var stopped = false
    private var connections: [Int32] = []
    private let done = DispatchSemaphore(value: 0)

    init(_ answer: Answer) throws {
        self.answer = answer
        (listener, port) = try LoopbackSocket.listen()
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Accepts connections (polling, so `stop()` ends the loop), reads each request's headers
    /// and answers.
    private func serve() {
        defer { done.signal() }
        while true {
            lock.lock()
            let isStopped = stopped
            lock.unlock()
            if isStopped { return }
            var poller = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 50) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            lock.lock()
            connections.append(connection)
            lock.unlock()
            var request = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !request.containsHeaderEnd {
                var readable = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
                guard poll(&readable, 1, 2000) > 0 else { break }
                let count = recv(connection, &buffer, buffer.count, 0)
                guard count > 0 else { break }
                request += buffer[0..<count]
            }
            let headers = switch answer {
            case .stalled: "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000\r\n\r\n"
            case .complete: "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
            }
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            _ = headers.withCString { send(connection, $0, strlen($0), flags) }
            if answer == .complete {
                lock.lock()
                connections.removeAll { $0 == connection }
                lock.unlock()
                LoopbackSocket.close(connection)
            }
        }
    }

    /// Stops accepting and closes every connection.
    func stop() {
        lock.lock()
        stopped = true
        let open = connections
        connections = []
        lock.unlock()
        done.wait()
        for connection in open { LoopbackSocket.close(connection) }
        LoopbackSocket.close(listener)
    }
}

extension Array where Element == UInt8 {
    /// Whether the bytes hold the blank line that ends HTTP headers.
    fileprivate var containsHeaderEnd: Bool {
        count >= 4 && (0...(count - 4)).contains { self[$0] == 13 && self[$0 + 1] == 10 && self[$0 + 2] == 13 && self[$0 + 3] == 10 }
    }
}
