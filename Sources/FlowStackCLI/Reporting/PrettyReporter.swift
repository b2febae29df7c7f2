import FlowLua
import FlowScript
import FlowStackCore
import FlowTesting
import Foundation

/// The human-readable test report: a line per test (✓/✗) under its file, failures in full,
/// then the summary line `N passed, N failed` alone on the last line.
@MainActor
final class PrettyReporter {
    private let terminal: Terminal
    private var currentFile: String?
    /// Whether script errors fail their tests (`--strict`), for the recap's wording.
    private let strict: Bool

    init(terminal: Terminal, strict: Bool = false) {
        self.terminal = terminal
        self.strict = strict
    }

    /// The load errors said already (`loadError`): the recap does not say them again.
    private var saidLoadErrors: [FlowScriptError] = []

    /// Reports a script that did not load.
    func loadError(_ error: FlowScriptError) {
        saidLoadErrors.append(error)
        terminal.line(terminal.red("error: ") + Self.shown(error.description))
        terminal.line(terminal.dim("  nothing of \(Self.shown(error.file ?? "this script")) ran; fix it and run again"))
    }

    /// Reports what the rules printed while they loaded, before the first test.
    func rulesOutput(_ lines: [String]) {
        guard !lines.isEmpty else { return }
        terminal.line(terminal.bold("rules (printed while loading)"))
        for line in lines { terminal.line(terminal.dim("      print: \(Self.shown(line))")) }
        terminal.line()
    }

    /// Reports one test as soon as it finished. A test the rules' load error stopped is
    /// counted in `finish`, not listed: the load error is said once.
    func report(_ result: FlowTestResult) {
        guard !result.isStoppedByRulesLoadError else { return }
        if result.file != currentFile {
            if currentFile != nil { terminal.line() }
            currentFile = result.file
            terminal.line(terminal.bold(Self.shown(result.file)))
        }
        let mark = result.isPending ? terminal.yellow("-") : result.passed ? terminal.green("✓") : terminal.red("✗")
        terminal.line("  \(mark) \(Self.shown(result.name))" + (result.isPending ? terminal.dim(" (pending)") : ""))
        for line in result.output {
            terminal.line(terminal.dim("      print: \(Self.shown(line))"))
        }
        for failure in result.failures {
            for (index, line) in Self.lines(of: failure).enumerated() {
                terminal.line("      " + (index == 0 ? terminal.red(line) : line))
            }
        }
        for error in result.scriptErrors where !result.failures.contains(error) {
            terminal.line("      " + terminal.yellow(Self.scriptErrorLine(error)))
        }
    }

    /// Text from rules, flows and names as the report shows it: on one line, controls escaped.
    nonisolated static func shown(_ text: String) -> String {
        FlowTerminalText.line(text)
    }

    /// A script error as one line: `rules/x.lua:3: script error in a rule (...): message`.
    nonisolated static func scriptErrorLine(_ error: FlowTestFailure) -> String {
        shown((error.location.isEmpty ? "" : error.location + ": ") + error.message)
    }

    /// The script errors of a run, one line each with the test they were raised in.
    nonisolated static func scriptErrorLines(_ report: FlowTestReport) -> [String] {
        report.scriptErrors.map { "\(scriptErrorLine($0.error))  (\(shown($0.test.file)) › \(shown($0.test.name)))" }
    }

    /// The closing lines: time, failures recap, and the summary as the very last line.
    func finish(_ report: FlowTestReport, seconds: Double) {
        terminal.line()
        let failed = report.results.filter { $0.failed && !$0.isStoppedByRulesLoadError }
        if !failed.isEmpty {
            terminal.line(terminal.red("Failed:"))
            for result in failed {
                let location = result.failures.first?.location ?? result.file
                terminal.line("  \(terminal.red("✗")) \(Self.shown(result.name))  \(terminal.dim(Self.shown(location)))")
            }
        }
        let unsaid = report.loadErrors.filter { !saidLoadErrors.contains($0) }
        if !unsaid.isEmpty {
            terminal.line(terminal.red("Did not load:"))
            for error in unsaid { terminal.line("  \(Self.shown(error.description))") }
        }
        let stopped = report.results.filter(\.isStoppedByRulesLoadError)
        if !stopped.isEmpty {
            let files = Set(stopped.map(\.file)).count
            terminal.line(terminal.red("Not run: \(CheckCommand.count(stopped.count, "test")) in \(CheckCommand.count(files, "flow file")): "
                + "the rules did not load (fix the error above and run again)"))
        }
        let scriptErrors = Self.scriptErrorLines(report)
        if !scriptErrors.isEmpty {
            terminal.line(terminal.yellow("Script errors the rules raised") + terminal.dim(
                strict ? " (--strict: each fails its test)" : " (the tests' expectations decide; --strict fails them)") + ":")
            for line in scriptErrors { terminal.line("  " + terminal.yellow(line)) }
        }
        let ruleErrors = Self.diagnostics(report, .error)
        if !ruleErrors.isEmpty {
            terminal.line(terminal.yellow("Rule errors (a failed style rule is left out, the others still apply):"))
            for error in ruleErrors { terminal.line("  " + terminal.yellow(error)) }
        }
        let warnings = Self.warnings(report)
        if !warnings.isEmpty {
            terminal.line(terminal.yellow("Warnings:"))
            for warning in warnings { terminal.line("  " + terminal.yellow(warning)) }
        }
        let time = String(format: "%.2f", seconds)
        let pending = report.pendingCount > 0 ? ", \(report.pendingCount) pending" : ""
        let errors = scriptErrors.isEmpty ? "" : ", " + CheckCommand.count(scriptErrors.count, "script error")
        terminal.line(terminal.dim("\(CheckCommand.count(report.results.count, "test")) in \(time) s\(pending)\(errors)"))
        terminal.line(report.summary)
    }

    /// The coverage summary: a line per rules file (lines and rules that ran), then the rules
    /// no flow called and the lines no flow ran.
    func coverage(_ files: [FlowCoverage.File], writtenTo path: String) {
        terminal.line()
        terminal.line(terminal.bold("Rules coverage") + terminal.dim(" (lcov: \(path))"))
        let width = files.map { Self.shown($0.name).count }.max() ?? 0
        for file in files {
            let percent = file.lines.isEmpty ? 100 : Int((Double(file.linesHit) * 100 / Double(file.lines.count)).rounded(.down))
            let name = Self.shown(file.name).padding(toLength: width, withPad: " ", startingAt: 0)
            terminal.line("  \(name)  \(String(format: "%3d", percent))% lines (\(file.linesHit)/\(file.lines.count)), "
                + "\(file.functionsHit)/\(file.functions.count) functions")
        }
        let uncalled = files.flatMap { file in
            file.functions.filter { $0.count == 0 }.map { Self.shown("\(file.name):\($0.line)  \($0.name)") }
        }
        if !uncalled.isEmpty {
            terminal.line(terminal.yellow("  Rules no flow called:"))
            for line in uncalled { terminal.line("    \(line)") }
        }
        let unrun = files.compactMap { file -> String? in
            let lines = file.lines.filter { $0.count == 0 }.map { String($0.line) }
            return lines.isEmpty ? nil : "\(Self.shown(file.name)): \(lines.joined(separator: ", "))"
        }
        if !unrun.isEmpty {
            terminal.line(terminal.yellow("  Lines no flow ran (a branch never taken):"))
            for line in unrun { terminal.line("    \(line)") }
        }
    }

    /// The engine's warnings of the run (style attributes ignored, shadowed deep links), once each.
    static func warnings(_ report: FlowTestReport) -> [String] {
        diagnostics(report, .warning)
    }

    /// The engine's diagnostics of one severity, once each, as `file:line: warning: message` or
    /// `file:line: error: message` (errors: style rules that failed and were left out, host
    /// functions that could not be registered).
    static func diagnostics(_ report: FlowTestReport, _ severity: FlowScriptDiagnostic.Severity) -> [String] {
        var seen: Set<String> = []
        return report.diagnostics.filter { $0.severity == severity }.compactMap { diagnostic in
            let text = shown(diagnostic.description)
            return seen.insert(text).inserted ? text : nil
        }
    }

    /// A failure's lines: location and message, expected, actual, stacks (each piece on its line).
    static func lines(of failure: FlowTestFailure) -> [String] {
        failure.lines(shown: shown)
    }
}
