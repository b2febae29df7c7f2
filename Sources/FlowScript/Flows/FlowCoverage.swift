import Foundation

/// Rules coverage for a flow run (`flowstack test --coverage FILE`): which lines of the rules
/// files ran and which rule functions were called, from the flows that ran.
///
/// When coverage is on, the runner loads the rules with a call to a counting host function
/// (`host.__flowstack_coverage`) inserted before every statement that starts a line inside a
/// function and at the entry of every function, on the same line (error lines do not move);
/// the instruction budget of a rule call is raised by `budgetFactor` so that the counting does
/// not make a rule run out of budget. With coverage off, nothing is inserted and nothing is
/// counted.
///
/// ```swift
/// let runner = FlowTestRunner<FlowRouteValue>(project: project, options: .init(coverage: true))
/// let report = await runner.run()
/// let lcov = FlowCoverage.lcov(report.coverage ?? [], directory: project.directory)
/// ```
@MainActor
public final class FlowCoverage {
    /// The name of the counting host function.
    static let hostName = "__flowstack_coverage"
    /// How much the rules' instruction budget grows with coverage on.
    static let budgetFactor = 8

    /// One rules file's counts.
    public struct File: Sendable, Equatable {
        /// The file's name (`rules/20-paywall.lua`).
        public let name: String
        /// Executable lines and how often each ran.
        public let lines: [(line: Int, count: Int)]
        /// Functions (`guard(editor)`, `style(screen)`, ...), their line and how often each was called.
        public let functions: [(name: String, line: Int, count: Int)]

        /// Lines that ran at least once.
        public var linesHit: Int { lines.count(where: { $0.count > 0 }) }
        /// Functions called at least once.
        public var functionsHit: Int { functions.count(where: { $0.count > 0 }) }

        public static func == (lhs: File, rhs: File) -> Bool {
            lhs.name == rhs.name && lhs.lines.elementsEqual(rhs.lines, by: { $0 == $1 })
                && lhs.functions.elementsEqual(rhs.functions, by: { $0 == $1 })
        }
    }

    private let probes: [[FlowCoverageInstrumenter.Probe]]
    private let names: [String]
    private var counts: [[Int]]

    /// Prepares counting for `sources`; `instrumented` are the sources to load instead.
    init(sources: [FlowRulesSource]) {
        names = sources.map(\.name)
        probes = sources.map { FlowCoverageInstrumenter.probes(in: $0.text) }
        counts = probes.map { Array(repeating: 0, count: $0.count) }
    }

    /// The sources with the counting calls inserted.
    func instrumented(_ sources: [FlowRulesSource]) -> [FlowRulesSource] {
        sources.enumerated().map { fileIndex, source in
            var bytes = Array(source.text.utf8)
            for (probeIndex, probe) in probes[fileIndex].enumerated().reversed() {
                let call: String
                switch probe.kind {
                case .line: call = "host.\(Self.hostName)(\(fileIndex + 1),\(probeIndex + 1)); "
                case .function: call = " host.\(Self.hostName)(\(fileIndex + 1),\(probeIndex + 1));"
                }
                bytes.insert(contentsOf: Array(call.utf8), at: min(probe.offset, bytes.count))
            }
            return FlowRulesSource(name: source.name, text: String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Counts one probe (the host function's body).
    func hit(_ arguments: [FlowScriptValue?]) {
        guard arguments.count >= 2, case .int(let file)? = arguments[0], case .int(let probe)? = arguments[1],
              counts.indices.contains(file - 1), counts[file - 1].indices.contains(probe - 1) else { return }
        counts[file - 1][probe - 1] += 1
    }

    /// The counts so far, per rules file.
    public var files: [File] {
        names.indices.map { index in
            var lines: [Int: Int] = [:]
            var functions: [(String, Int, Int)] = []
            for (probe, count) in zip(probes[index], counts[index]) {
                lines[probe.line] = max(lines[probe.line] ?? 0, count)
                if case .function(let name) = probe.kind { functions.append((name, probe.line, count)) }
            }
            return File(
                name: names[index], lines: lines.keys.sorted().map { ($0, lines[$0]!) },
                functions: functions.map { (name: $0.0, line: $0.1, count: $0.2) })
        }
    }

    /// Counts in lcov's tracefile format (`SF`, `FN`/`FNDA`/`FNF`/`FNH`, `DA`, `LF`/`LH`),
    /// with absolute paths below `directory`.
    public nonisolated static func lcov(_ files: [File], directory: URL) -> String {
        var out: [String] = []
        for file in files {
            out.append("TN:")
            out.append("SF:" + directory.appendingPathComponent(file.name).standardizedFileURL.path)
            // lcov keys functions by name: the line tells two of the same name apart.
            let named = file.functions.map { ("\($0.name):\($0.line)", $0.line, $0.count) }
            for (name, line, _) in named { out.append("FN:\(line),\(name)") }
            for (name, _, count) in named { out.append("FNDA:\(count),\(name)") }
            out.append("FNF:\(named.count)")
            out.append("FNH:\(file.functionsHit)")
            for (line, count) in file.lines { out.append("DA:\(line),\(count)") }
            out.append("LF:\(file.lines.count)")
            out.append("LH:\(file.linesHit)")
            out.append("end_of_record")
        }
        return out.joined(separator: "\n") + "\n"
    }
}
