import FlowRuleBundles
import FlowStackCore
import FlowStackTestSupport
import Foundation
import Testing
@testable import FlowScript

/// The "Hot Reload and Signed Bundles" article's examples, as written (paths, keys and dates
/// filled in), with the `flowstack` binary for the shell lines. Live rules are the
/// FlowLiveRules article's test.
@Suite("HotReloadAndBundles article", .enabled(if: TestTier.slow), .serialized)
@MainActor
struct HotReloadAndBundlesArticleTests {
    /// A project folder (`routes.lua`, `rules/gate.lua` blocking `editor` with `reason`) in a
    /// temporary directory, with room for keys and archives beside it.
    struct Workspace {
        let base: URL
        var scripts: URL { base.appendingPathComponent("Scripts") }

        init(reason: String) throws {
            base = FileManager.default.temporaryDirectory.appendingPathComponent("flowscript-article-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: base.appendingPathComponent("Scripts/rules"), withIntermediateDirectories: true)
            try Data("return { root = \"home\", routes = { home = {}, editor = {} } }\n".utf8)
                .write(to: scripts.appendingPathComponent("routes.lua"))
            try setGate(reason: reason)
        }

        func setGate(reason: String) throws {
            try Data(#"flow.guard("editor", function() return false, "\#(reason)" end)"#.utf8)
                .write(to: scripts.appendingPathComponent("rules/gate.lua"))
        }

        /// Runs `flowstack arguments...` in the workspace; records its output when it fails.
        func flowstack(_ arguments: [String]) async throws {
            let output = try await CLIRunner.run(arguments, in: base)
            #expect(output.status == 0, "flowstack \(arguments.joined(separator: " ")): \(output.stdout)\(output.stderr)")
        }

        /// `flowstack bundle Scripts --key rules.key --version V --min-app M --expires <in a year> [--output F]`.
        func bundle(version: String, minApp: String = "2.0", output: String? = nil) async throws {
            let expires = Date().addingTimeInterval(365 * 86_400).formatted(.iso8601.year().month().day())
            try await flowstack(["bundle", "Scripts", "--key", "rules.key", "--version", version, "--min-app", minApp, "--expires", expires]
                + (output.map { ["--output", $0] } ?? []))
        }

        func remove() {
            try? FileManager.default.removeItem(at: base)
        }
    }

    /// The reason the rules in force give for pushing `editor`.
    static func editorReason(_ engine: FlowRulesEngine<FlowRouteValue>) -> String? {
        let router = FlowRouter<FlowRouteValue, String>(root: FlowRouteValue("home"))
        engine.install(into: router)
        return router.perform(.push(FlowRouteValue("editor"), target: .active)).reason
    }

    @Test("Watching a folder: an edit reloads, a broken edit keeps the generation with file:line", .timeLimit(.minutes(10)))
    func watchingAFolder() async throws {
        let workspace = try Workspace(reason: "v1")
        defer { workspace.remove() }
        let engine = try FlowRulesEngine<FlowRouteValue>(directory: workspace.scripts.appendingPathComponent("rules"))
        var results: [FlowReloadResult] = []
        try engine.startWatching()        // debounced: several quick writes give one reload
        defer { engine.stopWatching() }
        engine.onReload = { result in
            results.append(result)
            switch result {
            case .loaded(let generation): print("rules generation \(generation)")
            case .failed(let error, let kept): print("\(error) (generation \(kept) stays)")
            }
        }
        let router = FlowRouter<FlowRouteValue, String>(root: FlowRouteValue("home"))
        engine.install(into: router)
        #expect(router.perform(.push(FlowRouteValue("editor"), target: .active)).reason == "v1")

        try workspace.setGate(reason: "v2")
        #expect(await eventually { engine.generation == 2 })
        #expect(results == [.loaded(generation: 2)])
        #expect(router.perform(.push(FlowRouteValue("editor"), target: .active)).reason == "v2")
        #expect(Array(router.history.map(\.generation).suffix(2)) == [1, 2], "every history entry records the generation that decided it")

        try Data("flow.guard(\"editor\", function( end)\n".utf8).write(to: workspace.scripts.appendingPathComponent("rules/gate.lua"))
        #expect(await eventually { engine.lastLoadError != nil })
        guard case .failed(let error, let kept)? = results.last else {
            Issue.record("expected a failed reload, got \(results)")
            return
        }
        #expect(kept == 2 && engine.generation == 2)
        #expect(error.description.hasPrefix("rules/gate.lua:1:"), "\(error)")
        #expect(router.perform(.push(FlowRouteValue("editor"), target: .active)).reason == "v2", "the previous rules stay in force")
    }

    @Test("Watching an engine made from sources in memory: a clear error, saying what to do instead")
    func watchingWithoutADirectory() throws {
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
        do {
            try engine.startWatching()
            Issue.record("an engine without a directory cannot be watched")
        } catch {
            #expect("\(error)".contains("FlowRulesEngine(directory:)"), "\(error)")
        }
    }

    @Test("Signed bundles: keygen and bundle as written, loadBundle loads it; every documented refusal keeps the rules",
          .timeLimit(.minutes(10)))
    func signedBundles() async throws {
        let workspace = try Workspace(reason: "signed 1.5.0")
        defer { workspace.remove() }
        try await workspace.flowstack(["keygen", "--private-key", "rules.key", "--public-key", "rules.pub"])
        try await workspace.bundle(version: "1.5.0", output: "rules-1.5.0.flowbundle")
        #expect(FileManager.default.fileExists(atPath: workspace.base.appendingPathComponent("rules-1.5.0.flowbundle").path))
        #expect(FileManager.default.fileExists(atPath: workspace.scripts.appendingPathComponent("bundle.json").path))
        #expect(FileManager.default.fileExists(atPath: workspace.scripts.appendingPathComponent("bundle.sig").path))

        let appPublicKey = try String(contentsOf: workspace.base.appendingPathComponent("rules.pub"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let bundleURL = workspace.scripts
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [
            FlowRulesSource(name: "rules/gate.lua", text: #"flow.guard("editor", function() return false, "embedded" end)"#),
        ])
        let verifier = FlowRuleBundleVerifier(
            publicKey: try FlowRuleBundlePublicKey(base64: appPublicKey),
            appVersion: FlowRuleBundleVersion("2.3.0")!)
        try engine.loadBundle(at: bundleURL, verifier: verifier)
        #expect(Self.editorReason(engine) == "signed 1.5.0")
        #expect(engine.generation == 2)

        /// Loads the bundle folder; returns the refusal, checking the rules in force stayed.
        func refusal(_ verifier: FlowRuleBundleVerifier) -> FlowRuleBundleError? {
            defer {
                #expect(Self.editorReason(engine) == "signed 1.5.0" && engine.generation == 2, "the rules in force stay")
            }
            do {
                try engine.loadBundle(at: bundleURL, verifier: verifier)
                return nil
            } catch {
                guard case .refused(let reason) = error else {
                    Issue.record("expected a refusal, got \(error)")
                    return nil
                }
                #expect(error.description.hasPrefix("rule bundle refused: "), "\(error)")
                return reason
            }
        }

        // An app older than the bundle's minimum.
        var oldApp = verifier
        oldApp.appVersion = FlowRuleBundleVersion("1.9")!
        guard case .appTooOld(_, let minimum, let app)? = refusal(oldApp) else {
            Issue.record("expected appTooOld")
            return
        }
        #expect(minimum == FlowRuleBundleVersion("2.0") && app == FlowRuleBundleVersion("1.9"))
        // An expired bundle.
        var later = verifier
        later.now = Date().addingTimeInterval(400 * 86_400)
        guard case .expired? = refusal(later) else {
            Issue.record("expected expired")
            return
        }
        // A bad signature: another team's key.
        let otherTeam = try FlowRuleBundlePublicKey(base64: FlowRuleBundleKeys.generate().publicKey)
        guard case .badSignature? = refusal(FlowRuleBundleVerifier(publicKey: otherTeam, appVersion: verifier.appVersion)) else {
            Issue.record("expected badSignature")
            return
        }
        // A version older than the bundle in force.
        try await workspace.bundle(version: "1.4.0")
        guard case .rollback(_, let version, let loaded)? = refusal(verifier) else {
            Issue.record("expected rollback")
            return
        }
        #expect(version == FlowRuleBundleVersion("1.4.0") && loaded == FlowRuleBundleVersion("1.5.0"))
        // A changed, an added and a missing file.
        try await workspace.bundle(version: "1.6.0")
        try workspace.setGate(reason: "edited after signing")
        guard case .changedFile(_, "rules/gate.lua", _, _)? = refusal(verifier) else {
            Issue.record("expected changedFile")
            return
        }
        try workspace.setGate(reason: "signed 1.5.0")
        try await workspace.bundle(version: "1.6.0")
        try Data("local x = 1\n".utf8).write(to: bundleURL.appendingPathComponent("rules/added.lua"))
        guard case .unlistedFile(_, "rules/added.lua")? = refusal(verifier) else {
            Issue.record("expected unlistedFile")
            return
        }
        try FileManager.default.removeItem(at: bundleURL.appendingPathComponent("rules/added.lua"))
        try FileManager.default.removeItem(at: bundleURL.appendingPathComponent("rules/gate.lua"))
        guard case .missingFile(_, "rules/gate.lua")? = refusal(verifier) else {
            Issue.record("expected missingFile")
            return
        }
    }

    @Test("Over the air: the updater's documented defaults (16 MiB, 30 s, loaded between two navigations)")
    func updaterDefaults() {
        let options = FlowRuleBundleUpdater<FlowRouteValue>.Options()
        #expect(options.maximumBytes == 16 << 20)
        #expect(options.timeout == 30)
        #expect(options.policy == .betweenNavigations)
    }

    @Test("Over the air: install(data:) then loadInstalledBundle, an older archive refused, rollback() one step back",
          .timeLimit(.minutes(10)))
    func overTheAir() async throws {
        let workspace = try Workspace(reason: "ota 1.5.0")
        defer { workspace.remove() }
        try await workspace.flowstack(["keygen", "--private-key", "rules.key", "--public-key", "rules.pub"])
        try await workspace.bundle(version: "1.5.0", output: "rules-1.5.0.flowbundle")
        try workspace.setGate(reason: "ota 1.4.0")
        try await workspace.bundle(version: "1.4.0", output: "rules-1.4.0.flowbundle")
        try workspace.setGate(reason: "ota 1.6.0")
        try await workspace.bundle(version: "1.6.0", output: "rules-1.6.0.flowbundle")
        func archive(_ version: String) throws -> Data {
            try Data(contentsOf: workspace.base.appendingPathComponent("rules-\(version).flowbundle"))
        }
        let verifier = FlowRuleBundleVerifier(
            publicKey: try FlowRuleBundlePublicKey(contentsOf: workspace.base.appendingPathComponent("rules.pub")),
            appVersion: FlowRuleBundleVersion("2.3.0")!)
        let storeDirectory = workspace.base.appendingPathComponent("Application Support")

        let store = try FlowRuleBundleStore(directory: storeDirectory, verifier: verifier)
        #expect(try store.install(data: archive("1.5.0")) == .installed(FlowRuleBundleVersion("1.5.0")!))
        let older = try archive("1.4.0"), newer = try archive("1.6.0")
        do {
            try store.install(data: older)
            Issue.record("a version below the highest installed must be refused")
        } catch {
            guard case .refused(.rollback) = error else {
                Issue.record("expected a rollback refusal, got \(error)")
                return
            }
        }
        #expect(try store.install(data: newer) == .installed(FlowRuleBundleVersion("1.6.0")!))

        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
        let choice = engine.loadInstalledBundle(from: store)    // at launch: the newest installed bundle that verifies
        #expect(choice.bundle?.version == FlowRuleBundleVersion("1.6.0"))
        #expect(Self.editorReason(engine) == "ota 1.6.0")

        #expect(try store.rollback() == FlowRuleBundleVersion("1.5.0"))
        let relaunched = try FlowRulesEngine<FlowRouteValue>(sources: [])
        let relaunchedStore = try FlowRuleBundleStore(directory: storeDirectory, verifier: verifier)
        #expect(relaunched.loadInstalledBundle(from: relaunchedStore).bundle?.version == FlowRuleBundleVersion("1.5.0"))
        #expect(Self.editorReason(relaunched) == "ota 1.5.0")
        // The bundle it left is never installed again.
        do {
            try store.install(data: newer)
            Issue.record("the withdrawn bundle must not install again")
        } catch {
            guard case .withdrawn = error else {
                Issue.record("expected withdrawn, got \(error)")
                return
            }
        }
    }
}
