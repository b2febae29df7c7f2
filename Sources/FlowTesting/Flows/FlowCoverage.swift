import FlowLua
import FlowScript
import Foundation

/// Rules coverage for a flow run (`flowstack test --coverage FILE`): which lines of the rules
/// files ran and which rule functions were called, from the flows that ran.
///
/// When coverage is on, the rules' VM asks Lua for line and call events on top of its
/// instruction counts, and its hook records them in C (`LuaCoverageCounts`): the rules load
/// unchanged, and the events charge nothing, so a rule stops at the same instruction with
/// coverage on and off. Reported are the statements that start a line inside a function and
/// the functions (`FlowCoverageProbes`); a statement counts the line events on its first line
/// (on its continued lines when its first line has none). With coverage off, the hook gets
/// count events only and nothing is counted.
///
/// ```swift
/// let runner = FlowTestRunner<FlowRouteValue>(project: project, options: .init(coverage: true))
/// let report = await runner.run()
/// let lcov = FlowCoverage.lcov(report.coverage ?? [], directory: project.directory)
/// ```
@MainActor
public final class FlowCoverage {
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

    private let probes: [[FlowCoverageProbes.Probe]]
    private let names: [String]
    /// Where the VMs' hooks count (`FlowRulesEngine.countCoverage(into:)`).
    let counts = LuaCoverageCounts()
    private let chunks: [Int32]

    /// Prepares counting for `sources` (loaded under their names).
    init(sources: [FlowRulesSource]) {
        names = sources.map(\.name)
        probes = sources.map { FlowCoverageProbes.probes(in: $0.text) }
        chunks = sources.map { [counts] source in
            counts.register(chunkName: source.name, lineCount: source.text.utf8.count(where: { $0 == 10 }) + 1)
        }
    }

    /// The counts so far, per rules file.
    package var files: [File] {
        names.indices.map { index in
            let chunk = chunks[index]
            var lines: [Int: Int] = [:]
            var functions: [(String, Int, Int)] = []
            for probe in probes[index] {
                let count: Int
                switch probe.kind {
                case .line:
                    let first = counts.lineHits(chunk, line: probe.line)
                    count = first > 0 || probe.lastLine == probe.line
                        ? first : (probe.line + 1...probe.lastLine).map { counts.lineHits(chunk, line: $0) }.max() ?? 0
                case .function(let name):
                    count = counts.functionHits(chunk, line: probe.line)
                    functions.append((name, probe.line, count))
                }
                lines[probe.line] = max(lines[probe.line] ?? 0, count)
            }
            return File(
                name: names[index], lines: lines.keys.sorted().map { ($0, lines[$0]!) },
                functions: functions.map { (name: $0.0, line: $0.1, count: $0.2) })
        }
    }

    /// Counts in lcov's tracefile format (`SF`, `FN`/`FNDA`/`FNF`/`FNH`, `DA`, `LF`/`LH`),
    /// with absolute paths below `directory`.
    ///
    /// Every name is escaped (`lcovField`): a field never holds a line break or another control
    /// character, so nothing a rules file writes (a rule named by a string continued over
    /// lines, say) can end a record or add one.
    public nonisolated static func lcov(_ files: [File], directory: URL) -> String {
        var out: [String] = []
        for file in files {
            out.append("TN:")
            out.append("SF:" + lcovField(directory.appendingPathComponent(file.name).standardizedFileURL.path, escapingCommas: false))
            // lcov keys functions by name: the line tells two of the same name apart.
            let named = file.functions.map { (lcovField("\($0.name):\($0.line)", escapingCommas: true), $0.line, $0.count) }
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

    /// `text` as one lcov field (or one terminal line): control characters (line breaks
    /// included, and the Unicode line and paragraph separators) written as `\xHH` /
    /// `\u{HHHH}`, and with `escapingCommas` commas as `\x2C` (lcov splits `FN` and `FNDA`
    /// at commas).
    nonisolated static func lcovField(_ text: String, escapingCommas: Bool) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00..<0x20, 0x7F:
                out += "\\x" + hex(scalar.value, digits: 2)
            case 0x2C where escapingCommas:
                out += "\\x2C"
            case 0x80..<0xA0, 0x2028, 0x2029:
                out += "\\u{" + hex(scalar.value, digits: 4) + "}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private nonisolated static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
