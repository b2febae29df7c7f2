import FlowLua
import FlowScript
import FlowStackCore
import FlowTesting
import Foundation

/// One watch session: loads the project afresh and runs its flows on every change.
@MainActor
final class WatchSession {
    let directory: URL
    let name: String
    let filter: String?
    /// Whether script errors the rules raise fail their tests (`--strict`).
    let strict: Bool
    let terminal: Terminal

    init(directory: URL, name: String, filter: String?, strict: Bool = false, terminal: Terminal) {
        self.directory = directory
        self.name = name
        self.filter = filter
        self.strict = strict
        self.terminal = terminal
    }

    /// Runs the flows once and prints the summary.
    func runOnce() async {
        let started = ContinuousClock.now
        let time = Terminal.clockTime()
        let report: FlowTestReport
        do {
            report = await ProjectArgument.runFlows(of: try FlowProject(directory: directory), filter: filter, strict: strict)
        } catch {
            terminal.line("[\(time)] " + terminal.red("error: ") + FlowTerminalText.line(error.description))
            return
        }
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if let error = report.rulesLoadError {
            // Nothing ran: one line for the error, one for the summary.
            terminal.line("  " + terminal.red("did not load: ") + FlowTerminalText.line(error.description))
            terminal.line("[\(time)] " + terminal.red("the rules did not load: \(CheckCommand.count(report.results.count, "test")) not run")
                + " (\(String(format: "%.2f", seconds)) s)")
            return
        }
        for line in report.rulesOutput {
            terminal.line(terminal.dim("  rules print: \(FlowTerminalText.line(line))"))
        }
        for error in report.loadErrors where !report.results.contains(where: { $0.file == error.file }) {
            terminal.line("  " + terminal.red("did not load: ") + FlowTerminalText.line(error.description))
        }
        for result in report.results where result.failed {
            let failure = result.failures.first
            let location = failure.map { $0.location.isEmpty ? "" : "\($0.location): " } ?? ""
            terminal.line("  " + terminal.red("✗") + " " + FlowTerminalText.line("\(result.file) › \(result.name)"))
            guard let failure else { continue }
            var detail = "\(location)\(failure.message)"
            if let expected = failure.expected, let actual = failure.actual {
                detail += " (expected \(Self.short(expected)), actual \(Self.short(actual)))"
            }
            terminal.line(terminal.dim("      " + FlowTerminalText.line(detail)))
        }
        for result in report.results where result.isPending {
            terminal.line("  " + terminal.yellow("-") + " " + FlowTerminalText.line("\(result.file) › \(result.name)") + terminal.dim(" (pending)"))
        }
        for line in PrettyReporter.scriptErrorLines(report) {
            terminal.line("  " + terminal.yellow("! ") + line)
        }
        let summary = report.succeeded ? terminal.green(report.summary) : terminal.red(report.summary)
        let pending = report.pendingCount > 0 ? terminal.yellow(", \(report.pendingCount) pending") : ""
        terminal.line("[\(time)] \(summary)\(pending) (\(String(format: "%.2f", seconds)) s)")
    }

    private static func short(_ value: String) -> String {
        value.count > 60 ? String(value.prefix(57)) + "..." : value
    }
}
