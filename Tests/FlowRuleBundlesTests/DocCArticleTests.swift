import FlowStackCore
import FlowStackTestSupport
import Foundation
import Testing
import FlowRuleBundles
import FlowScript

/// The FlowRuleBundles article's example, as written (a store directory and a served URL filled
/// in): embedded rules at a first launch, a signed bundle fetched, installed and loaded, and the
/// same bundle chosen at the next launch.
@Suite("FlowRuleBundles article", .serialized)
@MainActor
struct FlowRuleBundlesArticleTests {
    /// Rules embedded in the app: a guard blocking `editor` with the reason "embedded".
    static func embeddedEngine() throws -> FlowRulesEngine<FlowRouteValue> {
        try FlowRulesEngine<FlowRouteValue>(sources: [
            FlowRulesSource(name: "rules/gate.lua", text: #"flow.guard("editor", function() return false, "embedded" end)"#),
        ])
    }

    /// The reason the rules in force give for pushing `editor`.
    static func editorReason(_ engine: FlowRulesEngine<FlowRouteValue>) -> String? {
        let router = FlowRouter<FlowRouteValue, String>(root: FlowRouteValue("home"))
        engine.install(into: router)
        return router.perform(.push(FlowRouteValue("editor"), target: .active)).reason
    }

    @Test("the overview's example: launch, fetch, install, load, relaunch", .timeLimit(.minutes(10)))
    func overviewExample() async throws {
        let project = try LiveProject(reason: "signed v1")
        defer { project.remove() }
        let pair = FlowRuleBundleKeys.generate()
        let keyFile = project.url.deletingLastPathComponent().appendingPathComponent("\(project.url.lastPathComponent).key")
        try Data(pair.privateKey.utf8).write(to: keyFile)
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let server = try await ServeProcess(project: project.url, token: "t", extra: ["--key", keyFile.path])
        defer { server.stop() }
        let storeDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-article-store-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: storeDirectory) }
        let appPublicKey = pair.publicKey

        // First launch: nothing installed, the embedded rules stay.
        let engine = try Self.embeddedEngine()
        let store = try FlowRuleBundleStore(directory: storeDirectory, verifier: FlowRuleBundleVerifier(
            publicKey: try FlowRuleBundlePublicKey(base64: appPublicKey), appVersion: FlowRuleBundleVersion("2.3.0")!))
        let launch = engine.loadInstalledBundle(from: store)      // at launch
        #expect(launch.bundle == nil && launch.refusals.isEmpty)
        #expect(engine.generation == 1 && engine.bundleVersion == nil)
        #expect(Self.editorReason(engine) == "embedded")

        let updater = FlowRuleBundleUpdater(store: store, engine: engine, options: .init(headers: ["Authorization": "Bearer t"]))
        var reported: [String] = []
        updater.onUpdate = { outcome in reported.append(outcome.description) }
        let outcome = await updater.fetch(from: server.url.appendingPathComponent("v1/rules"))
        guard case .installed(let version, let generation) = outcome else {
            Issue.record("expected the bundle installed and loaded, got \(outcome)")
            return
        }
        #expect(version == FlowRuleBundleVersion("0.0.1"))
        #expect(generation == 2 && engine.generation == 2)
        #expect(engine.bundleVersion == version)
        #expect(Self.editorReason(engine) == "signed v1")
        #expect(reported == ["rule bundle 0.0.1 installed and loaded (generation 2)"])

        // Next launch: a new engine with the embedded rules picks the installed bundle.
        let relaunched = try Self.embeddedEngine()
        let choice = relaunched.loadInstalledBundle(from: try FlowRuleBundleStore(directory: storeDirectory, verifier: store.verifier))
        #expect(choice.bundle?.version == version, "\(choice.refusals)")
        #expect(relaunched.bundleVersion == version)
        #expect(Self.editorReason(relaunched) == "signed v1")
    }

    @Test("bundleVersion names the bundle in force, and no longer one a reload replaced")
    func bundleVersionFollowsTheRulesInForce() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store()
        try store.install(data: fixture.data(version: "1.2.0"))
        let engine = try Self.embeddedEngine()
        var versionsSeen: [FlowRuleBundleVersion?] = []
        engine.onReload = { [unowned engine] _ in versionsSeen.append(engine.bundleVersion) }
        engine.loadInstalledBundle(from: store)
        #expect(engine.bundleVersion == FlowRuleBundleVersion("1.2.0"))
        #expect(Self.editorReason(engine) == "bundle 1.2.0")

        // The rules in force no longer come from the bundle: the version says so.
        engine.reload(sources: [
            FlowRulesSource(name: "rules/gate.lua", text: #"flow.guard("editor", function() return false, "live" end)"#),
        ])
        #expect(Self.editorReason(engine) == "live")
        #expect(engine.bundleVersion == nil)
        // A reload that fails keeps the rules, and so the version, in force.
        engine.loadInstalledBundle(from: store)
        engine.reload(sources: [FlowRulesSource(name: "rules/gate.lua", text: "flow.guard(")])
        #expect(engine.bundleVersion == FlowRuleBundleVersion("1.2.0"))
        // `onReload` sees the version of the rules it reports.
        #expect(versionsSeen == [FlowRuleBundleVersion("1.2.0"), nil, FlowRuleBundleVersion("1.2.0"), FlowRuleBundleVersion("1.2.0")])
    }
}
