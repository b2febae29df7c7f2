import FlowScript
import Foundation

/// The human-readable test report: a line per test (✓/✗) under its file, failures in full,
/// then the summary line `N passed, N failed` alone on the last line.
@MainActor
final class PrettyReporter {
    private let terminal: Terminal
    private var currentFile: String?

    init(terminal: Terminal) {
        self.terminal = terminal
    }

    /// Reports a script that did not load.
    func loadError(_ error: FlowScriptError) {
        terminal.line(terminal.red("error: ") + error.description)
        terminal.line(terminal.dim("  nothing of \(error.file ?? "this script") ran; fix it and run again"))
    }

    /// Reports one test as soon as it finished.
    func report(_ result: FlowTestResult) {
        if result.file != currentFile {
            if currentFile != nil { terminal.line() }
            currentFile = result.file
            terminal.line(terminal.bold(result.file))
        }
        let mark = result.passed ? terminal.green("✓") : terminal.red("✗")
        terminal.line("  \(mark) \(result.name)")
        for line in result.output {
            terminal.line(terminal.dim("      print: \(line)"))
        }
        for failure in result.failures {
            for (index, line) in Self.lines(of: failure).enumerated() {
                terminal.line("      " + (index == 0 ? terminal.red(line) : line))
            }
        }
    }

    /// The closing lines: time, failures recap, and the summary as the very last line.
    func finish(_ report: FlowTestReport, seconds: Double) {
        terminal.line()
        let failed = report.results.filter { !$0.passed }
        if !failed.isEmpty {
            terminal.line(terminal.red("Failed:"))
            for result in failed {
                let location = result.failures.first?.location ?? result.file
                terminal.line("  \(terminal.red("✗")) \(result.name)  \(terminal.dim(location))")
            }
        }
        if !report.loadErrors.isEmpty {
            terminal.line(terminal.red("Did not load:"))
            for error in report.loadErrors { terminal.line("  \(error.description)") }
        }
        let time = String(format: "%.2f", seconds)
        terminal.line(terminal.dim("\(report.results.count) tests in \(time) s"))
        terminal.line(report.summary)
    }

    /// A failure's lines: location and message, expected, actual, stacks.
    static func lines(of failure: FlowTestFailure) -> [String] {
        failure.description.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }
}
