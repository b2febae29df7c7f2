import FlowScript
import FlowTesting
import Foundation

/// The report in TAP version 13 (what `prove` reads): a test line per test, a YAML block per
/// failed test with typed values (numbers and booleans unquoted), pending tests as `# SKIP`,
/// the plan last.
enum TAPReporter {
    static func render(_ report: FlowTestReport) -> String {
        var lines = ["TAP version 13"]
        lines += report.rulesOutput.map { "# rules printed while loading: \(comment($0))" }
        var number = 0
        for error in report.loadErrors where !report.results.contains(where: { $0.isLoadFailure && $0.file == error.file }) {
            lines.append("# did not load: \(comment(error.description))")
        }
        for result in report.results {
            number += 1
            let name = escape("\(result.file) › \(result.name)")
            if result.isPending {
                lines.append("ok \(number) - \(name) # SKIP pending")
                continue
            }
            guard result.failed else {
                lines.append("ok \(number) - \(name)")
                continue
            }
            lines.append("not ok \(number) - \(name)")
            lines.append("  ---")
            if let first = result.failures.first { lines += block(first, indent: "  ") }
            if result.failures.count > 1 {
                lines.append("  more:")
                for failure in result.failures.dropFirst() {
                    let entry = block(failure, indent: "    ")
                    lines.append("  - " + entry[0].dropFirst(4))
                    lines += entry.dropFirst()
                }
            }
            if !result.output.isEmpty {
                lines.append("  output:")
                lines += result.output.map { "    - \(yaml($0, listItem: true))" }
            }
            lines.append("  duration_ms: \(Int((result.duration * 1000).rounded()))")
            lines.append("  ...")
        }
        lines.append("1..\(number)")
        for line in PrettyReporter.scriptErrorLines(report) { lines.append("# \(comment(line))") }
        if report.pendingCount > 0 { lines.append("# \(report.pendingCount) pending") }
        lines.append("# \(report.summary)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// One failure as YAML lines: message, severity, at/file/line, expected, actual, diff,
    /// traceback, stacks.
    private static func block(_ failure: FlowTestFailure, indent: String) -> [String] {
        var lines = ["\(indent)message: \(yaml(failure.message))"]
        lines.append("\(indent)severity: \(failure.kind == .expectation ? "fail" : "error")")
        if !failure.location.isEmpty { lines.append("\(indent)at: \(yaml(failure.location))") }
        if let file = failure.file { lines.append("\(indent)file: \(yaml(file))") }
        if let line = failure.line { lines.append("\(indent)line: \(line)") }
        if let expected = failure.expected { lines.append("\(indent)expected: \(yaml(expected))") }
        if let actual = failure.actual { lines.append("\(indent)actual: \(yaml(actual))") }
        for (key, values) in [("diff", failure.diff), ("traceback", failure.traceback), ("stacks", failure.stacks)] where !values.isEmpty {
            lines.append("\(indent)\(key):")
            lines += values.map { "\(indent)  - \(yaml($0, listItem: true))" }
        }
        return lines
    }

    private static func escape(_ text: String) -> String { FlowTAPText.description(text) }
    private static func comment(_ text: String) -> String { FlowTAPText.comment(text) }
    private static func yaml(_ text: String, listItem: Bool = false) -> String { FlowTAPText.yaml(text, listItem: listItem) }
}
