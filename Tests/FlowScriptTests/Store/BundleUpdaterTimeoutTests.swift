import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// `Options.timeout` bounds a request's whole transfer, not only the wait for its first bytes.
@Suite("bundle updater: the timeout")
@MainActor
struct BundleUpdaterTimeoutTests {
    @Test("a server that sends its headers and then nothing fails at the timeout", .timeLimit(.minutes(1)))
    func headersThenNothingFailsAtTheTimeout() async throws {
        let server = try StalledServer()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowscript-timeout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pair = FlowRuleBundleKeys.generate()
        let store = try FlowRuleBundleStore(directory: directory, verifier: FlowRuleBundleVerifier(
            publicKey: try FlowRuleBundlePublicKey(base64: pair.publicKey), appVersion: FlowRuleBundleVersion("1.0")!))
        let updater = FlowRuleBundleUpdater<FlowRouteValue>(
            store: store, engine: nil, options: .init(timeout: 1, attempts: 2, backoff: .milliseconds(10)))
        let outcome = await updater.fetch(from: URL(string: "http://127.0.0.1:\(server.port)/rules.flowbundle")!)
        guard case .failed(let detail) = outcome else {
            Issue.record("a stalled answer must fail, got \(outcome)")
            return
        }
        #expect(detail.contains("within 1"), "\(detail)")
        #expect(detail.contains("after 2 attempts"), "a timeout is retried like a network error: \(detail)")
        #expect(store.installedVersions.current == nil)
    }
}
