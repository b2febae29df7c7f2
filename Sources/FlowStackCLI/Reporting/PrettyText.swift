import FlowScript
import FlowTesting
import Foundation

/// The pretty report as plain text, for `--format pretty --output FILE`.
enum PrettyText {
    @MainActor
    static func render(_ report: FlowTestReport, seconds: Double) -> String {
        var lines: [String] = report.loadErrors.map { "error: \($0.description)" }
        if !report.rulesOutput.isEmpty {
            lines.append("rules (printed while loading)")
            lines += report.rulesOutput.map { "      print: \($0)" }
        }
        var file: String?
        for result in report.results {
            if result.file != file {
                file = result.file
                lines.append(result.file)
            }
            lines.append("  \(result.isPending ? "-" : result.passed ? "✓" : "✗") \(result.name)\(result.isPending ? " (pending)" : "")")
            lines += result.output.map { "      print: \($0)" }
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
