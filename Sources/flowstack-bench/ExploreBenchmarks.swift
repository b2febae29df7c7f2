import FlowScript
import FlowTesting
import FlowStackCore
import Foundation

/// `flowstack explore`'s speed: states per second and resident bytes per state, on the example
/// project (`Scripts/`) and on a generated project of 50 routes and 6 boolean facts.
@MainActor
enum ExploreBenchmarks {
    /// The package root (this file is Sources/flowstack-bench/ExploreBenchmarks.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Prints the figures.
    static func run() async throws {
        let example = try FlowProject(directory: packageRoot.appendingPathComponent("Scripts"))
        // FLOWSTACK_BENCH_EXPLORE="depth,maxStack,maxPresented,maxQueued[,maxStates]" explores
        // the example within other bounds (to see what each bound costs).
        if let bounds = ProcessInfo.processInfo.environment["FLOWSTACK_BENCH_EXPLORE"] {
            let numbers = bounds.split(separator: ",").compactMap { Int($0) }
            guard numbers.count == 4 || numbers.count == 5 else {
                throw FlowScriptError(
                    kind: .typeError, message: "FLOWSTACK_BENCH_EXPLORE is depth,maxStack,maxPresented,maxQueued[,maxStates], as in 6,2,1,1")
            }
            await measure("explore_example", example, .init(
                depth: numbers[0], maxStack: numbers[1], maxPresented: numbers[2], maxQueued: numbers[3],
                maxStates: numbers.count == 5 ? numbers[4] : 5_000_000))
            return
        }
        await measure("explore_example", example, exampleBounds)
        // 300 operations per state and 64 combinations: depth 2 alone is millions of states, so
        // the rates are taken over the first 20,000 (an incomplete exploration).
        await measure(
            "explore_generated50x6", try generated(), .init(depth: 2, maxStack: 2, maxPresented: 1, maxQueued: 1, maxStates: 20_000),
            summary: "explore")
    }

    /// The bounds the example is explored completely within (docs/exploring.md).
    static let exampleBounds = FlowExplorer.Options(depth: 6, maxStack: 1, maxPresented: 1, maxQueued: 0)

    /// Explores `project` and reports states/s and bytes/state (with `summary`, also as
    /// `<summary>_transitions_per_s`, `_states_per_s` and `_bytes_per_state`, per processor second).
    static func measure(_ name: String, _ project: FlowProject, _ options: FlowExplorer.Options, summary: String? = nil) async {
        do {
            let before = residentBytes()
            let cpuBefore = cpuSeconds()
            let explorer = try FlowExplorer(project: project, options: options)
            let report = await explorer.run()
            let grown = max(residentBytes() - before, 0)
            let states = Double(max(report.states, 1))
            Measure.report("\(name)_states", Double(report.states), "states")
            Measure.report("\(name)_complete", report.complete ? 1 : 0, "bool")
            Measure.report("\(name)_seconds", report.seconds, "s")
            Measure.report("\(name)_states_per_s", states / max(report.seconds, 0.000_001), "states/s")
            // On a shared machine the wall clock counts other processes' time too.
            let cpu = cpuSeconds() - cpuBefore
            Measure.report("\(name)_cpu_seconds", cpu, "s")
            Measure.report("\(name)_states_per_cpu_s", states / max(cpu, 0.000_001), "states/s")
            Measure.report("\(name)_transitions_per_cpu_s", Double(report.transitions) / max(cpu, 0.000_001), "transitions/s")
            Measure.report("\(name)_bytes_per_state", Double(grown) / states, "B")
            Measure.report("\(name)_transitions", Double(report.transitions), "transitions")
            Measure.report("\(name)_assignments", Double(report.assignments), "assignments")
            if let summary {
                Measure.report("\(summary)_transitions_per_s", Double(report.transitions) / max(cpu, 0.000_001), "transitions/s")
                Measure.report("\(summary)_states_per_s", states / max(cpu, 0.000_001), "states/s")
                Measure.report("\(summary)_bytes_per_state", Double(grown) / states, "B")
            }
        } catch {
            FileHandle.standardError.write(Data("flowstack-bench: \(name): \(error)\n".utf8))
        }
    }

    /// A project of 50 routes and 6 boolean facts: each route's guard reads one fact.
    static func generated() throws -> FlowProject {
        let routes = (1...50).map { "r\($0)" }
        let facts = (1...6).map { "f\($0)" }
        let manifest = """
            return {
              root = "r1",
              routes = { \(routes.map { "\($0) = {}" }.joined(separator: ", ")) },
              facts = { \(facts.map { "\($0) = false" }.joined(separator: ", ")) },
            }
            """
        var rules = ""
        for (index, route) in routes.enumerated() {
            let fact = facts[index % facts.count]
            rules += """
                flow.guard("\(route)", function(op, stacks, ctx)
                  if facts.\(fact) and op.kind == "sheet" then return false, "\(route) is not a sheet while \(fact)" end
                end)

                """
        }
        let source = FlowRulesSource(name: "rules/generated.lua", text: rules)
        return FlowProject(
            directory: FileManager.default.temporaryDirectory, manifest: try FlowManifest.parse(source: manifest),
            rules: [source], flows: [])
    }

    /// Processor time this process used so far (`clock()`, whose unit POSIX fixes at a microsecond).
    static func cpuSeconds() -> Double {
        Double(clock()) / 1_000_000
    }

    /// Resident memory of this process (Linux: /proc/self/statm), or 0 elsewhere.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
