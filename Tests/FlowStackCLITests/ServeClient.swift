import FlowStackTestSupport
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `flowstack serve` started for a test: its output, port and token.
final class ServeFixture {
    let project: TemporaryProject
    let output = LineCollector()
    private(set) var port: UInt16 = 0
    let token = "t"
    private let process = Process()
    private let pipe = Pipe()

    /// Starts `flowstack serve` on `project` (loopback, token `t`, `extra` arguments added), and
    /// waits until it listens. With `descriptorLimit`, it runs under `ulimit -n` of that many.
    init(_ project: TemporaryProject, extra: [String] = [], host: String? = "127.0.0.1", descriptorLimit: Int? = nil) throws {
        self.project = project
        guard let binary = CLIRunner.binary else { throw CLIRunner.MissingBinary() }
        var arguments = ["serve", project.path, "--token", token] + extra
        if let host { arguments += ["--host", host] }
        if let descriptorLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        process.standardOutput = pipe
        process.standardError = pipe
        let output = self.output
        pipe.fileHandleForReading.readabilityHandler = { handle in output.append(handle.availableData) }
        try process.run()
        guard let line = output.waitForLine(containing: "url: http://", timeout: 30),
              let port = line.split(separator: ":").last.flatMap({ UInt16($0) }) else {
            stop()
            throw FixtureError(description: "serve did not print its URL: \(output.text)")
        }
        self.port = port
    }

    /// Whether the server is still running (it did not crash).
    var isRunning: Bool { process.isRunning }

    /// Interrupts the server (Ctrl-C) and waits for it to end; kills it when it is still
    /// running 10 seconds later (a Ctrl-C that came before serve handles it is lost).
    func stop() {
        if process.isRunning {
            process.interrupt()
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        pipe.fileHandleForReading.readabilityHandler = nil
    }

    /// An authorized `GET /v1/rules` on a new connection: its status and headers, or `nil`
    /// when no answer came within `timeout` seconds.
    func getRules(timeout: TimeInterval = 10) -> RawHTTPResponse? {
        guard let connection = try? RawConnection(port: port) else { return nil }
        defer { connection.close() }
        guard connection.send("GET /v1/rules HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n") else {
            return nil
        }
        return connection.readResponse(timeout: timeout)
    }

    struct FixtureError: Error, CustomStringConvertible {
        let description: String
    }
}

/// A response as read off the wire.
struct RawHTTPResponse {
    let status: Int
    let head: String
    let body: Data

    /// A header's value (name compared without case).
    func header(_ name: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == name.lowercased() {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}

/// A TCP connection to 127.0.0.1 that sends exactly the bytes a test gives, however malformed.
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32
    private var received = Data()

    init(port: UInt16) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
        // A send blocked for 10 seconds gives up (the test fails instead of hanging).
        var sendTimeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            Glibc_close(descriptor)
            throw POSIXError(.ECONNREFUSED)
        }
    }

    /// Sends all of `text`; `false` when the server closed the connection.
    @discardableResult
    func send(_ text: String) -> Bool { send(Data(text.utf8)) }

    /// Sends all of `data`; `false` when the server closed the connection.
    @discardableResult
    func send(_ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                #if canImport(Glibc)
                let sent = Glibc.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
                #else
                let sent = Darwin.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, 0)
                #endif
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    /// Waits up to `timeout` seconds for bytes; `nil` on timeout, empty at the end of the stream.
    func receive(timeout: TimeInterval) -> Data? {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(max(0, timeout) * 1000)) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? Data(buffer[..<count]) : Data()
    }

    /// Whether the server has sent something (or closed) by now; what it sent is kept for
    /// `readResponse`.
    func hasAnswered() -> Bool {
        guard let data = receive(timeout: 0) else { return false }
        received.append(data)
        return true
    }

    /// Whether the server closed the connection within `timeout` seconds (what it sent before
    /// is dropped).
    func waitForClose(timeout: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard let data = receive(timeout: deadline.timeIntervalSinceNow) else { return false }
            if data.isEmpty { return true }
        }
        return false
    }

    /// Reads one response (head, then a Content-Length body) within `timeout` seconds.
    func readResponse(timeout: TimeInterval) -> RawHTTPResponse? {
        let deadline = Date().addingTimeInterval(timeout)
        let separator = Data("\r\n\r\n".utf8)
        while true {
            if let end = received.range(of: separator) {
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
                let parts = head.split(separator: " ", maxSplits: 2)
                guard parts.count >= 2, let status = Int(parts[1]) else { return nil }
                if status == 100 {
                    received.removeSubrange(..<end.upperBound)
                    continue
                }
                let response = RawHTTPResponse(status: status, head: head, body: Data())
                let length = Int(response.header("content-length") ?? "0") ?? 0
                let bodyStart = end.upperBound
                while received.count - bodyStart < length {
                    guard deadline > Date(), let data = receive(timeout: deadline.timeIntervalSinceNow), !data.isEmpty else { return nil }
                    received.append(data)
                }
                let body = received[bodyStart..<(bodyStart + length)]
                received.removeSubrange(..<(bodyStart + length))
                return RawHTTPResponse(status: status, head: head, body: Data(body))
            }
            guard deadline > Date(), let data = receive(timeout: deadline.timeIntervalSinceNow), !data.isEmpty else { return nil }
            received.append(data)
        }
    }

    func close() {
        Glibc_close(descriptor)
    }
}

private func Glibc_close(_ descriptor: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(descriptor)
    #else
    _ = Darwin.close(descriptor)
    #endif
}
