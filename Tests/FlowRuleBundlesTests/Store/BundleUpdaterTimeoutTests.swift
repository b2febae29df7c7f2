import FlowStackCore
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FlowStackTestSupport
import Testing
@testable import FlowRuleBundles
@testable import FlowScript

/// `Options.timeout` bounds a request's whole transfer, not only the wait for its first bytes.
@Suite("bundle updater: the timeout", .enabled(if: TestTier.slow))
@MainActor
struct BundleUpdaterTimeoutTests {
    @Test("a server that sends its headers and then nothing fails at the timeout", .timeLimit(.minutes(10)))
    func headersThenNothingFailsAtTheTimeout() async throws {
        let server = try LoopbackHTTPServer(.stalled)
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowscript-timeout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = FlowRuleBundleKeys.generate()
        let store = try FlowRuleBundleStore(directory: directory, verifier: FlowRuleBundleVerifier(
            publicKey: try FlowRuleBundlePublicKey(base64: pair.publicKey), appVersion: FlowRuleBundleVersion("1.0")!))
        let updater = FlowRuleBundleUpdater<FlowRouteValue>(
            store: store, engine: nil, options: .init(timeout: 1, attempts: 2, backoff: .milliseconds(10)))
        let before = Self.processorSeconds(), start = Date()
        let outcome = await updater.fetch(from: URL(string: "http://127.0.0.1:\(server.port)/rules.flowbundle")!)
        print("stalled answer: gave up after \(Date().timeIntervalSince(start)) s, \(Self.processorSeconds() - before) s of processor time")
        guard case .failed(let detail) = outcome else {
            Issue.record("a stalled answer must fail, got \(outcome)")
            return
        }
        #expect(detail.contains("within 1"), "\(detail)")
        #expect(detail.contains("after 2 attempts"), "a timeout is retried like a network error: \(detail)")
        #expect(store.installedVersions.current == nil)
    }

    /// The processor time this process has used (user and system), in seconds.
    static func processorSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
