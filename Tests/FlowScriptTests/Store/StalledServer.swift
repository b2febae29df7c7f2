import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tiny HTTP server on 127.0.0.1 that answers every request with its headers (a 200 and a
/// `Content-Length` of 1000) and then sends nothing, holding the connection open until `stop()`.
final class StalledServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var stopped = false
    private var connections: [Int32] = []
    private let done = DispatchSemaphore(value: 0)

    struct Failure: Error {}

    init() throws {
        #if canImport(Glibc)
        let kind = Int32(SOCK_STREAM.rawValue)
        #else
        let kind = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, kind, 0)
        guard descriptor >= 0 else { throw Failure() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else {
            Self.closeDescriptor(descriptor)
            throw Failure()
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    /// Accepts connections (polling, so `stop()` ends the loop), reads each request's headers
    /// and sends the answer's headers only.
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
            let headers = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: 1000\r\n\r\n"
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            _ = headers.withCString { send(connection, $0, strlen($0), flags) }
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
        for connection in open { Self.closeDescriptor(connection) }
        Self.closeDescriptor(listener)
    }

    private static func closeDescriptor(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }
}

extension Array where Element == UInt8 {
    /// Whether the bytes hold the blank line that ends HTTP headers.
    fileprivate var containsHeaderEnd: Bool {
        count >= 4 && (0...(count - 4)).contains { self[$0] == 13 && self[$0 + 1] == 10 && self[$0 + 2] == 13 && self[$0 + 3] == 10 }
    }
}
