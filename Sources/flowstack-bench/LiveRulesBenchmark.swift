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
        let binary = try flowstackBinary()
        let project = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-bench-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: project.appendingPathComponent("rules"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: project) }
        try Data("return { root = \"home\", routes = { home = {}, editor = {} } }\n".utf8)
            .write(to: project.appendingPathComponent("routes.lua"))
        try save(reason: "edit 0", in: project)

        let server = Process()
        server.executableURL = binary
        server.arguments = ["serve", project.path, "--host", "127.0.0.1", "--port", "0", "--token", "t"]
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        server.environment = environment
        let pipe = Pipe()
        server.standardOutput = pipe
        server.standardError = pipe
        let printed = OutputSink()
        printed.collect(pipe)
        try server.run()
        defer {
            server.terminate()
            server.waitUntilExit()
        }
        guard await waitUntil({ printed.text.contains("serving generation") }),
              let line = printed.text.split(separator: "\n").first(where: { $0.hasPrefix("url: http://127.0.0.1:") }),
              let port = Int(line.split(separator: ":").last ?? ""),
              let url = URL(string: "http://127.0.0.1:\(port)")
        else { throw Failure(description: "flowstack serve did not start: \(printed.text)") }

        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
        var loadedAt: [Int: ContinuousClock.Instant] = [:]
        engine.onReload = { result in
            if case .loaded(let generation) = result { loadedAt[generation] = .now }
        }
        let connection = engine.connect(to: url, token: "t", options: FlowLiveRulesOptions(wait: 30, device: "bench"))
        defer { engine.disconnect() }
        guard await waitUntil({ engine.generation == 2 }) else { throw Failure(description: "the first rules never arrived") }
        var latencies: [Duration] = []
        for edit in 1...20 {
            let saved = ContinuousClock.now
            try save(reason: "edit \(edit)", in: project)
            let generation = edit + 2
            guard await waitUntil({ loadedAt[generation] != nil }) else {
                throw Failure(description: "edit \(edit) never arrived: \(printed.text)")
            }
            latencies.append(loadedAt[generation]! - saved)
            // Let the server finish the flows run before the next save.
            guard await waitUntil({ printed.text.contains("generation \(generation) loaded") }) else {
                throw Failure(description: "the server never reported generation \(generation): \(printed.text)")
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

    /// Rewrites `rules/gate.lua` (write then rename, as editors save): a guard blocking `editor`.
    static func save(reason: String, in project: URL) throws {
        let temporary = project.appendingPathComponent("rules/.gate.lua.tmp")
        try Data((#"flow.guard("editor", function() return false, "\#(reason)" end)"# + "\n").utf8).write(to: temporary)
        guard rename(temporary.path, project.appendingPathComponent("rules/gate.lua").path) == 0 else {
            throw Failure(description: "cannot rename \(temporary.path)")
        }
    }

    /// `FLOWSTACK_BINARY`, or `flowstack` next to this executable.
    static func flowstackBinary() throws -> URL {
        let candidate = ProcessInfo.processInfo.environment["FLOWSTACK_BINARY"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).standardizedFileURL
            .deletingLastPathComponent().appendingPathComponent("flowstack")
        guard FileManager.default.isExecutableFile(atPath: candidate.path) else {
            throw Failure(description: "no flowstack binary at \(candidate.path): build it (`swift build`) or set FLOWSTACK_BINARY")
        }
        return candidate
    }

    /// Checks `condition` every 10 ms for at most 30 s.
    @MainActor
    static func waitUntil(_ condition: @MainActor () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }
}
