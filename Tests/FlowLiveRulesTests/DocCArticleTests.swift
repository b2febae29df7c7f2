import FlowStackCore
import FlowStackTestSupport
import Foundation
import Testing
import FlowLiveRules
import FlowRuleBundles
import FlowScript

/// The FlowLiveRules article's example, as written (the Mac's address is `flowstack serve`'s on
/// 127.0.0.1), with the default options: the first rules arrive, an edit is picked up, a broken
/// save never reaches the app, and `disconnect()` stops the connection.
@Suite("FlowLiveRules article", .enabled(if: TestTier.slow), .serialized)
@MainActor
struct FlowLiveRulesArticleTests {
    /// The reason the rules in force give for pushing `editor`.
    static func editorReason(_ engine: FlowRulesEngine<FlowRouteValue>) -> String? {
        let router = FlowRouter<FlowRouteValue, String>(root: FlowRouteValue("home"))
        engine.install(into: router)
        return router.perform(.push(FlowRouteValue("editor"), target: .active)).reason
    }

    @Test("connect(to:token:) as written: live reload picks up an edit", .timeLimit(.minutes(10)))
    func overviewExample() async throws {
        let project = try LiveProject(reason: "first save")
        defer { project.remove() }
        let server = try await ServeProcess(project: project.url, token: "dev-secret")
        defer { server.stop() }
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [
            FlowRulesSource(name: "rules/gate.lua", text: #"flow.guard("editor", function() return false, "embedded" end)"#),
        ])

        #if DEBUG
        engine.connect(to: URL(string: "http://127.0.0.1:\(server.port)")!, token: "dev-secret")
        #endif

        let connection = try #require(engine.liveRulesConnection)
        #expect(await eventually { engine.generation == 2 })
        #expect(Self.editorReason(engine) == "first save")
        // The terminal says what the device runs, under the default device name.
        #expect(await server.waitForOutput("\(FlowLiveRulesOptions.defaultDevice): generation 2 loaded"))

        var mark = server.output.count
        try project.write("flow.guard(\"editor\", function( end)\n")
        #expect(await server.waitForOutput("rules/gate.lua:1:", after: mark), "the terminal shows the broken save's file:line")
        mark = server.output.count
        try project.setGate(reason: "second save")
        #expect(await eventually { engine.generation == 3 }, "the broken save never reached the app: one generation per clean save")
        #expect(Self.editorReason(engine) == "second save")
        #expect(await server.waitForOutput("generation 3 loaded", after: mark))

        engine.disconnect()
        await connection.stopped()
        #expect(engine.liveRulesConnection == nil)
        #expect(Self.editorReason(engine) == "second save", "disconnecting keeps the rules in force")
    }

    @Test("FlowLiveRulesOptions.verifier: bundles signed by `serve --key` load, unsigned ones are refused", .timeLimit(.minutes(10)))
    func verifierAcceptsOnlySignedBundles() async throws {
        let project = try LiveProject(reason: "signed")
        defer { project.remove() }
        let pair = FlowRuleBundleKeys.generate()
        let keyFile = project.url.deletingLastPathComponent().appendingPathComponent("\(project.url.lastPathComponent).key")
        try Data(pair.privateKey.utf8).write(to: keyFile)
        defer { try? FileManager.default.removeItem(at: keyFile) }
        let options = FlowLiveRulesOptions(device: "Test", verifier: FlowRuleBundleVerifier(
            publicKey: try FlowRuleBundlePublicKey(base64: pair.publicKey), appVersion: FlowRuleBundleVersion("2.3.0")!))

        let signed = try await ServeProcess(project: project.url, token: "t", extra: ["--key", keyFile.path])
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
        var events: [FlowLiveRulesEvent] = []
        engine.connect(to: signed.url, token: "t", options: options) { events.append($0) }
        #expect(await eventually { engine.generation == 2 })
        #expect(Self.editorReason(engine) == "signed")
        engine.disconnect()
        signed.stop()

        let unsigned = try await ServeProcess(project: project.url, token: "t")
        defer { unsigned.stop() }
        let other = try FlowRulesEngine<FlowRouteValue>(sources: [])
        var refused: [FlowLiveRulesEvent] = []
        let connection = other.connect(to: unsigned.url, token: "t", options: options) { refused.append($0) }
        #expect(await eventually { !refused.isEmpty })
        guard case .refused(let detail)? = refused.first else {
            Issue.record("expected the unsigned rules refused, got \(refused)")
            return
        }
        #expect(detail.contains("not signed"), "\(detail)")
        #expect(other.generation == 1, "refused rules are never loaded")
        #expect(await unsigned.waitForOutput("Test: "), "the terminal hears of the refusal: \(unsigned.output)")
        other.disconnect()
        await connection.stopped()
    }

    @Test("connecting again replaces the previous connection", .timeLimit(.minutes(10)))
    func connectingAgainReplacesTheConnection() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
        let url = URL(string: "http://127.0.0.1:\(silent.port)")!
        let first = engine.connect(to: url, token: "t", options: FlowLiveRulesOptions(wait: 60))
        let second = engine.connect(to: url, token: "t", options: FlowLiveRulesOptions(wait: 60))
        await first.stopped()
        #expect(engine.liveRulesConnection === second)
        engine.disconnect()
        await second.stopped()
    }
}
