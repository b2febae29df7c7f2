import FlowStackCore
import FlowStackTestSupport
import Foundation
import Testing
@testable import FlowRuleBundles
@testable import FlowScript

/// `FlowRuleBundleUpdater` against `flowstack serve --key` (signed bundles) on 127.0.0.1.
@Suite("bundle updater", .enabled(if: TestTier.slow), .serialized)
@MainActor
struct BundleUpdaterTests {
    /// A signed server, a store that trusts its key, and an engine.
    final class Setup {
        let project: LiveProject
        let server: ServeProcess
        let store: FlowRuleBundleStore
        let storeDirectory: URL
        let engine: FlowRulesEngine<FlowRouteValue>
        let rulesURL: URL
        let headers = ["Authorization": "Bearer t"]

        @MainActor
        init() async throws {
            project = try LiveProject(reason: "signed v1")
            let pair = FlowRuleBundleKeys.generate()
            let keyFile = project.url.deletingLastPathComponent().appendingPathComponent("\(project.url.lastPathComponent).key")
            try Data(pair.privateKey.utf8).write(to: keyFile)
            server = try await ServeProcess(project: project.url, token: "t", extra: ["--key", keyFile.path])
            try? FileManager.default.removeItem(at: keyFile)
            storeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("flowscript-updater-\(UUID().uuidString)")
            store = try FlowRuleBundleStore(directory: storeDirectory, verifier: FlowRuleBundleVerifier(
                publicKey: try FlowRuleBundlePublicKey(base64: pair.publicKey), appVersion: FlowRuleBundleVersion("1.0")!))
            engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
            rulesURL = server.url.appendingPathComponent("v1/rules")
        }

        deinit {
            server.stop()
            project.remove()
            try? FileManager.default.removeItem(at: storeDirectory)
        }
    }

    @Test(.timeLimit(.minutes(10)))
    func installsAppliesBetweenNavigationsThenGets304() async throws {
        let setup = try await Setup()
        let updater = FlowRuleBundleUpdater(store: setup.store, engine: setup.engine, options: .init(headers: setup.headers))
        var reported: [String] = []
        updater.onUpdate = { reported.append($0.description) }
        let first = await updater.fetch(from: setup.rulesURL)
        guard case .installed(let version, let generation) = first else {
            Issue.record("expected an install, got \(first)")
            return
        }
        #expect(version == FlowRuleBundleVersion("0.0.1"))
        #expect(generation == 2)
        #expect(setup.engine.generation == 2)
        #expect(updater.etag != nil)
        let second = await updater.fetch(from: setup.rulesURL)
        guard case .notModified = second else {
            Issue.record("expected 304, got \(second)")
            return
        }
        #expect(reported.count == 2)
        #expect(setup.engine.generation == 2)
        // The next launch picks the installed bundle.
        let relaunched = try FlowRulesEngine<FlowRouteValue>(sources: [])
        #expect(relaunched.loadInstalledBundle(from: setup.store).bundle?.version == FlowRuleBundleVersion("0.0.1"))
    }

    @Test(.timeLimit(.minutes(10)))
    func nextLaunchPolicyInstallsWithoutLoading() async throws {
        let setup = try await Setup()
        let updater = FlowRuleBundleUpdater(store: setup.store, engine: setup.engine, options: .init(policy: .nextLaunch, headers: setup.headers))
        let outcome = await updater.fetch(from: setup.rulesURL)
        guard case .installed(_, nil) = outcome else {
            Issue.record("expected an install for the next launch, got \(outcome)")
            return
        }
        #expect(setup.engine.generation == 1)
        #expect(setup.store.installedVersions.current == FlowRuleBundleVersion("0.0.1"))
    }

    @Test(.timeLimit(.minutes(10)))
    func refusesAnswersOverTheSizeLimitAndUnauthorizedOnes() async throws {
        let setup = try await Setup()
        let small = FlowRuleBundleUpdater(store: setup.store, engine: setup.engine, options: .init(maximumBytes: 64, headers: setup.headers))
        guard case .failed(let detail) = await small.fetch(from: setup.rulesURL) else {
            Issue.record("an answer over the limit must fail")
            return
        }
        #expect(detail.contains("limit"))
        let anonymous = FlowRuleBundleUpdater(store: setup.store, engine: setup.engine)
        guard case .failed(let unauthorized) = await anonymous.fetch(from: setup.rulesURL) else {
            Issue.record("a 401 must fail")
            return
        }
        #expect(unauthorized.contains("401"))
        #expect(setup.store.installedVersions.current == nil)
    }

    @Test(.timeLimit(.minutes(10)))
    func retriesWithBackoffThenGivesUp() async throws {
        // A port with nothing listening: every attempt is refused.
        let closed = try SilentListener()
        let port = closed.port
        closed.close()
        let store = try FlowRuleBundleStore(
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("flowscript-updater-\(UUID().uuidString)"),
            verifier: FlowRuleBundleVerifier(publicKey: try FlowRuleBundlePublicKey(base64: FlowRuleBundleKeys.generate().publicKey),
                                             appVersion: FlowRuleBundleVersion("1.0")!))
        let updater = FlowRuleBundleUpdater<FlowRouteValue>(
            store: store, engine: nil, options: .init(timeout: 5, attempts: 3, backoff: .milliseconds(10)))
        guard case .failed(let detail) = await updater.fetch(from: URL(string: "http://127.0.0.1:\(port)/rules.flowbundle")!) else {
            Issue.record("an unreachable server must fail")
            return
        }
        #expect(detail.contains("after 3 attempts"))
    }
}
