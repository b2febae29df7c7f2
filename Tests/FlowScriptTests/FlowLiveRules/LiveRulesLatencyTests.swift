import FlowStackCore
import Foundation
import Testing
@testable import FlowLiveRules
@testable import FlowScript

/// Edit-to-device latency on loopback: prints the median of 20 edits (a figure, not an assertion).
@Suite("live rules: latency", .serialized)
@MainActor
struct LiveRulesLatencyTests {
    @Test(.timeLimit(.minutes(2)))
    func twentyEditsArriveInOrderAndTheMedianIsPrinted() async throws {
        let project = try LiveProject(reason: "edit 0")
        defer { project.remove() }
        let server = try ServeProcess(project: project.url, token: "t")
        defer { server.stop() }
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
        var loadedAt: [Int: ContinuousClock.Instant] = [:]
        engine.onReload = { result in
            if case .loaded(let generation) = result { loadedAt[generation] = .now }
        }
        let connection = engine.connect(to: server.url, token: "t", options: FlowLiveRulesOptions(wait: 30, device: "latency"))
        #expect(await eventually { engine.generation == 2 })
        var latencies: [Duration] = []
        for edit in 1...20 {
            let saved = ContinuousClock.now
            try project.setGate(reason: "edit \(edit)")
            let generation = edit + 2
            guard await eventually(seconds: 20, { loadedAt[generation] != nil }) else {
                Issue.record("edit \(edit) never arrived: \(server.output)")
                break
            }
            latencies.append(loadedAt[generation]! - saved)
            // Let the server finish the flows run before the next save.
            #expect(await server.waitForOutput("generation \(generation) loaded"))
        }
        #expect(latencies.count == 20)
        #expect(engine.generation == 22)
        let sorted = latencies.sorted()
        if !sorted.isEmpty {
            let median = (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
            let ms = { (d: Duration) in Double(d.components.seconds) * 1_000 + Double(d.components.attoseconds) / 1e15 }
            print(String(format: "live_rules_edit_to_device_median_ms: %.1f (min %.1f, max %.1f, 20 edits, loopback, debug build)",
                         ms(median), ms(sorted.first!), ms(sorted.last!)))
        }
        engine.disconnect()
        await connection.stopped()
    }
}
