import FlowStackCore
import FlowStackTestSupport
import Foundation
import Testing
@testable import FlowRuleBundles
@testable import FlowLiveRules
@testable import FlowScript
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `flowstack serve` and `engine.connect(to:token:)` end to end, on 127.0.0.1.
@Suite("live rules: serve and connect", .enabled(if: TestTier.slow), .serialized)
@MainActor
struct LiveRulesTests {
    static let options = FlowLiveRulesOptions(wait: 10, minimumBackoff: .milliseconds(20), maximumBackoff: .milliseconds(200), device: "Test Simulator")

    /// The reason the guard on `editor` gives with the rules in force.
    func editorReason(_ engine: FlowRulesEngine<FlowRouteValue>) -> String? {
        let router = FlowRouter<FlowRouteValue, String>(root: FlowRouteValue("home"))
        engine.install(into: router)
        return router.perform(.push(FlowRouteValue("editor"), target: .active)).reason
    }

    @Test(.timeLimit(.minutes(10)))
    func anEditReachesTheEngineAndABrokenEditDoesNot() async throws {
        let project = try LiveProject(reason: "v1")
        defer { project.remove() }
        let server = try await ServeProcess(project: project.url, token: "secret")
        defer { server.stop() }
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
        var events: [FlowLiveRulesEvent] = []
        let connection = engine.connect(to: server.url, token: "secret", options: Self.options) { events.append($0) }

        #expect(await eventually { engine.generation == 2 })
        #expect(editorReason(engine) == "v1")
        #expect(await server.waitForOutput("Test Simulator: generation 2 loaded"))

        var mark = server.output.count
        try project.write("flow.guard(\"editor\", function( end)\n")
        #expect(await server.waitForOutput("did not load", after: mark))
        #expect(server.output.contains("rules/gate.lua:1:"), "the terminal shows file:line: \(server.output)")

        mark = server.output.count
        try project.setGate(reason: "v2")
        #expect(await eventually { engine.generation == 3 })
        #expect(editorReason(engine) == "v2")
        #expect(await server.waitForOutput("generation 3 loaded", after: mark))
        // The event is reported after the load that sets the generation: wait for it too.
        #expect(await eventually { events.count >= 2 })
        #expect(events == [.loaded(generation: 2), .loaded(generation: 3)], "the broken edit never reached the engine")
        #expect(engine.lastLoadError == nil)

        engine.disconnect()
        await connection.stopped()
        #expect(engine.liveRulesConnection == nil)
    }

    @Test(.timeLimit(.minutes(10)))
    func aWrongTokenGets401() async throws {
        let project = try LiveProject(reason: "v1")
        defer { project.remove() }
        let server = try await ServeProcess(project: project.url, token: "right")
        defer { server.stop() }
        var request = URLRequest(url: server.url.appendingPathComponent("v1/rules"))
        request.setValue("Bearer wrong", forHTTPHeaderField: "Authorization")
        #expect(try await FlowHTTP.send(request, session: .shared).status == 401)
        request.setValue(nil, forHTTPHeaderField: "Authorization")
        #expect(try await FlowHTTP.send(request, session: .shared).status == 401)
        request.setValue("Bearer right", forHTTPHeaderField: "Authorization")
        #expect(try await FlowHTTP.send(request, session: .shared).status == 200)

        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
        var events: [FlowLiveRulesEvent] = []
        let connection = engine.connect(to: server.url, token: "wrong", options: Self.options) { events.append($0) }
        #expect(await eventually { events.contains(.unauthorized) })
        #expect(engine.generation == 1)
        connection.cancel()
        await connection.stopped()
    }

    @Test(.timeLimit(.minutes(10)))
    func aServerRestartMidPollIsSurvived() async throws {
        let project = try LiveProject(reason: "v1")
        defer { project.remove() }
        let first = try await ServeProcess(project: project.url, token: "t")
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
        var events: [FlowLiveRulesEvent] = []
        let connection = engine.connect(to: first.url, token: "t", options: Self.options) { events.append($0) }
        #expect(await eventually { engine.generation == 2 })
        // The engine is now in a long poll; the server goes away under it.
        first.stop()
        #expect(await eventually { events.contains { if case .unreachable = $0 { true } else { false } } })
        try project.setGate(reason: "after restart")
        let second = try await ServeProcess(project: project.url, token: "t", port: first.port)
        defer { second.stop() }
        #expect(await eventually { engine.generation == 3 })
        #expect(editorReason(engine) == "after restart")
        engine.disconnect()
        await connection.stopped()
    }

    @Test(.timeLimit(.minutes(10)))
    func aSilentServerNeverBlocksTheMainActor() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [
            FlowRulesSource(name: "gate.lua", text: #"flow.guard("editor", function() return false, "local" end)"#),
        ])
        let connection = engine.connect(
            to: URL(string: "http://127.0.0.1:\(silent.port)")!, token: "t",
            options: FlowLiveRulesOptions(wait: 60, device: "Test"))
        // While the request hangs, the main actor keeps deciding navigations.
        for _ in 0..<50 {
            #expect(editorReason(engine) == "local")
            try await Task.sleep(for: .milliseconds(2))
        }
        #expect(engine.generation == 1)
        // Disconnecting cancels the open request: the connection stops without waiting for a timeout.
        engine.disconnect()
        await connection.stopped()
    }

    @Test(.timeLimit(.minutes(10)))
    func releasingTheEngineStopsTheConnection() async throws {
        let silent = try SilentListener()
        defer { silent.close() }
        var engine: FlowRulesEngine<FlowRouteValue>? = try FlowRulesEngine<FlowRouteValue>(sources: [])
        let connection = engine!.connect(to: URL(string: "http://127.0.0.1:\(silent.port)")!, token: "t", options: FlowLiveRulesOptions(wait: 60))
        weak var weakEngine: FlowRulesEngine<FlowRouteValue>?
        weakEngine = engine
        engine = nil
        #expect(weakEngine == nil)
        await connection.stopped()
    }
}
