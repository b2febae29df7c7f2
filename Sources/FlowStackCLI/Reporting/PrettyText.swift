import FlowScript
import FlowTesting
import Foundation

/// The pretty report as plain text, for `--format pretty --output FILE`.
enum PrettyText {
    @MainActor
    static func render(_ report: FlowTestReport, seconds: Double) -> String {
        let shown = PrettyReporter.shown
        var lines: [String] = report.loadErrors.map { "error: \(shown($0.description))" }
        if !report.rulesOutput.isEmpty {
            lines.append("rules (printed while loading)")
            lines += report.rulesOutput.map { "      print: \(shown($0))" }
        }
        var file: String?
        for result in report.results {
            if result.file != file {
                file = result.file
                lines.append(shown(result.file))
            }
            lines.append("  \(result.isPending ? "-" : result.passed ? "✓" : "✗") \(shown(result.name))\(result.isPending ? " (pending)" : "")")
            lines += result.output.map { "      print: \(shown($0))" }
            for failure in result.failures { lines += PrettyReporter.lines(of: failure).map { "      " + $0 } }
            for error in result.scriptErrors where !result.failures.contains(error) {
                lines.append("      " + PrettyReporter.scriptErrorLine(error))
            }
        }
        lines += PrettyReporter.scriptErrorLines(report)
        lines += PrettyReporter.diagnostics(report, .error)
        lines += PrettyReporter.warnings(report)
        lines.append(report.summary)
        return lines.joined(separator: "\n") + "\n"
    }
}
