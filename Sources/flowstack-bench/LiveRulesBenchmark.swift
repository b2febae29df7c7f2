import FlowLiveRules
import FlowScript
import FlowStackCore
import FlowStackTestSupport
import Foundation

/// Edit-to-device latency of live rules on loopback: a `flowstack serve` process for a temporary
/// project, an engine connected to it, 20 saves of a rules file; prints the median time from a
/// save to the engine's reload, with the fastest and slowest.
///
/// `connect(to:token:)` exists in debug builds only, so this figure does too:
/// `FLOWSTACK_BENCH_ONLY=live_rules swift run flowstack-bench` (it runs the `flowstack` binary
/// next to this one, or `FLOWSTACK_BINARY`; `swift build` builds both).
enum LiveRulesBenchmark {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    #if DEBUG
    @MainActor
    static func run() async throws {
        let project = try LiveProject(reason: "edit 0")
        defer { project.remove() }
        let server = try await ServeProcess(project: project.url, token: "t")
        defer { server.stop() }
        let url = server.url

        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
        var loadedAt: [Int: ContinuousClock.Instant] = [:]
        engine.onReload = { result in
            if case .loaded(let generation) = result { loadedAt[generation] = .now }
        }
        let connection = engine.connect(to: url, token: "t", options: FlowLiveRulesOptions(wait: 30, device: "bench"))
        defer { engine.disconnect() }
        guard await eventually({ engine.generation == 2 }) else { throw Failure(description: "the first rules never arrived") }
        var latencies: [Duration] = []
        for edit in 1...20 {
            let saved = ContinuousClock.now
            try project.setGate(reason: "edit \(edit)")
            let generation = edit + 2
            guard await eventually({ loadedAt[generation] != nil }) else {
                throw Failure(description: "edit \(edit) never arrived: \(server.output)")
            }
            latencies.append(loadedAt[generation]! - saved)
            // Let the server finish the flows run before the next save.
            guard await eventually({ server.output.contains("generation \(generation) loaded") }) else {
                throw Failure(description: "the server never reported generation \(generation): \(server.output)")
            }
        }
        engine.disconnect()
        await connection.stopped()
        let sorted = latencies.sorted()
        let median = (sorted[(sorted.count - 1) / 2] + sorted[sorted.count / 2]) / 2
        let ms = { (d: Duration) in Double(d.components.seconds) * 1_000 + Double(d.components.attoseconds) / 1e15 }
        print(String(format: "live_rules_edit_to_device_median_ms: %.1f ms (min %.1f, max %.1f, 20 edits, loopback, debug build)",
                     ms(median), ms(sorted.first!), ms(sorted.last!)))
    }
    #endif
}
