import FlowLua
import FlowScript
import FlowStackCore
import Foundation

/// Everything a flow run produced: one result per test, and the scripts that did not load.
public struct FlowTestReport: Equatable, Sendable {
    /// The tests, in file order then declaration order.
    public var results: [FlowTestResult]
    /// Scripts that did not load (manifest, rules, a flow file): nothing of them ran.
    public var loadErrors: [FlowScriptError]
    /// Warnings noticed along the way (style attributes ignored, deep-link patterns shadowed).
    public var diagnostics: [FlowScriptDiagnostic]
    /// The rules coverage of the run, when it was counted (`Options.coverage`).
    public var coverage: [FlowCoverage.File]?
    /// The rules' load error, when the rules did not load (then no test ran).
    public var rulesLoadError: FlowScriptError?
    /// The project directory the file names are relative to (`flows/auth.lua`), if known.
    package var directory: URL?
    /// What the rules files printed at their top level while they loaded (a rule's prints
    /// during a test are in that test's `output`).
    public var rulesOutput: [String] = []

    /// Creates a report.
    package init(results: [FlowTestResult] = [], loadErrors: [FlowScriptError] = [], diagnostics: [FlowScriptDiagnostic] = []) {
        self.results = results
        self.loadErrors = loadErrors
        self.diagnostics = diagnostics
    }

    /// How many tests passed.
    public var passedCount: Int { results.count(where: \.passed) }

    /// How many tests failed.
    public var failedCount: Int { results.count(where: \.failed) }

    /// How many tests are pending (not run).
    public var pendingCount: Int { results.count(where: \.isPending) }

    /// The script errors the rules raised, with the test they were raised in, in test order.
    public var scriptErrors: [(test: FlowTestResult, error: FlowTestFailure)] {
        results.flatMap { result in result.scriptErrors.map { (test: result, error: $0) } }
    }

    /// Whether every test passed and every script loaded.
    public var succeeded: Bool { loadErrors.isEmpty && failedCount == 0 }

    /// The absolute path of a file the report names (`flows/auth.lua`), when the directory is known.
    package func path(of file: String) -> String {
        guard let directory, !file.hasPrefix("/") else { return file }
        return directory.appendingPathComponent(file).path
    }

    /// `N passed, N failed`.
    public var summary: String { "\(passedCount) passed, \(failedCount) failed" }
}
