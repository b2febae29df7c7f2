import FlowStackTestSupport
import Foundation
import Testing
@testable import FlowRuleBundles
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `FlowHTTP`: cancelled exchanges leave nothing behind, so the session they ran on ends.
@Suite("FlowHTTP exchanges and sessions")
struct FlowHTTPTests {
    /// Hears when its session has ended.
    final class EndWatcher: NSObject, URLSessionDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var isEnded = false

        var ended: Bool {
            lock.lock()
            defer { lock.unlock() }
            return isEnded
        }

        /// Waits up to 30 s for the session's end, off the main actor (which other suites keep
        /// busy); returns whether it ended.
        func waitUntilEnded() async -> Bool {
            for _ in 0..<3_000 where !ended {
                try? await Task.sleep(for: .milliseconds(10))
            }
            return ended
        }

        func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
            lock.lock()
            isEnded = true
            lock.unlock()
        }
    }

    @Test("a request cancelled before it started does not keep its session alive")
    func cancelledBeforeStart() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let watcher = EndWatcher()
        let session = URLSession(configuration: .ephemeral, delegate: watcher, delegateQueue: nil)
        let request = URLRequest(url: URL(string: "http://127.0.0.1:\(silent.port)/v1/rules")!)
        let exchange = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await FlowHTTP.send(request, session: session)
        }
        await #expect(throws: CancellationError.self) { try await exchange.value }
        FlowHTTP.end(session)
        #expect(await watcher.waitUntilEnded(), "the unstarted task was cancelled, so the session ends")
    }

    @Test("sessions end after exchanges cancelled at any moment", .timeLimit(.minutes(10)))
    func cancelledAtAnyMoment() async throws {
        for round in 0..<16 {
            let silent = try SilentListener()
            defer { silent.close() }
            let request = URLRequest(url: URL(string: "http://127.0.0.1:\(silent.port)/v1/rules")!)
            let watcher = EndWatcher()
            let session = URLSession(configuration: .ephemeral, delegate: watcher, delegateQueue: nil)
            let exchange = Task { try await FlowHTTP.send(request, session: session) }
            try await Task.sleep(for: .microseconds((round % 8) * 500))
            exchange.cancel()
            await #expect(throws: CancellationError.self) { try await exchange.value }
            FlowHTTP.end(session)
            #if canImport(FoundationNetworking)
            // Linux leaves the request to end on its own (`FlowHTTP.stop`): here, when the
            // silent server goes.
            silent.close()
            #endif
            #expect(await watcher.waitUntilEnded(), "round \(round)")
        }
    }

    @Test("exchanges cancelled as their answer arrives end cleanly", .timeLimit(.minutes(10)))
    func cancelledAsTheyFinish() async throws {
        let server = try LoopbackHTTPServer(.complete)
        defer { server.stop() }
        let request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/v1/rules")!)
        // Cancellations land before, during and after each answer (a loopback answer takes
        // about a millisecond), so some meet a task at the moment it finishes.
        for round in 0..<300 {
            let watcher = EndWatcher()
            let session = URLSession(configuration: .ephemeral, delegate: watcher, delegateQueue: nil)
            let exchange = Task { try await FlowHTTP.send(request, session: session) }
            try await Task.sleep(for: .microseconds((round * 37) % 3_000))
            exchange.cancel()
            do {
                let response = try await exchange.value
                #expect(response.status == 200 && response.body == Data("ok".utf8))
            } catch is CancellationError {
                // Cancelled before the answer arrived.
            }
            FlowHTTP.end(session)
            #expect(await watcher.waitUntilEnded(), "round \(round)")
        }
    }
}
