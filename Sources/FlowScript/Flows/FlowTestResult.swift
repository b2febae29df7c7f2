import FlowStack
import Foundation

/// Why a flow test failed: an expectation that did not hold, or an error.
public struct FlowTestFailure: Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: String, Hashable, Sendable {
        /// An `expect(...)` matcher did not hold.
        case expectation
        /// The test (or a `before_each`/`after_each`) raised an error.
        case error
    }

    /// What kind of failure.
    public let kind: Kind
    /// The flow file (`flows/auth.lua`), if known.
    public let file: String?
    /// The line in `file`, if known.
    public let line: Int?
    /// The expectation (`expect(v).to_be(x)`) or the error's message.
    public let message: String
    /// The expected value as Lua source, for expectations that compare.
    public let expected: String?
    /// The actual value as Lua source, for expectations.
    public let actual: String?
    /// The router's stacks (and dialog) when it failed, one line per stack.
    public let stacks: [String]

    /// Creates a failure.
    public init(
        kind: Kind, file: String?, line: Int?, message: String, expected: String? = nil, actual: String? = nil,
        stacks: [String] = []
    ) {
        self.kind = kind
        self.file = file
        self.line = line
        self.message = message
        self.expected = expected
        self.actual = actual
        self.stacks = stacks
    }

    /// `file:line`, `file`, or an empty string.
    public var location: String {
        switch (file, line) {
        case let (file?, line?): return "\(file):\(line)"
        case let (file?, nil): return file
        default: return ""
        }
    }

    /// Every line of the failure: location and message, expected, actual, stacks.
    public var description: String {
        var lines = [(location.isEmpty ? "" : location + ": ") + message]
        if let expected { lines.append("expected: \(expected)") }
        if let actual { lines.append("actual:   \(actual)") }
        if !stacks.isEmpty {
            lines.append("stacks:")
            lines += stacks.map { "  " + $0 }
        }
        return lines.joined(separator: "\n")
    }
}

/// One step the router took (or refused) during a test, for navigation graphs.
public struct FlowNavigationStep: Hashable, Sendable {
    /// The route on top of the front-most stack before the step (its name).
    public let from: String
    /// Where the step went (applied) or would have gone (refused): a route name.
    public let to: String
    /// The operation kind (`push`, `sheet`, `dismiss`, ...).
    public let kind: String
    /// Whether it applied.
    public let applied: Bool
    /// Why it did not apply (the rule's reason), or `nil`.
    public let reason: String?
    /// `code`, `user` or `deeplink`.
    public let source: String

    /// Creates a step.
    public init(from: String, to: String, kind: String, applied: Bool, reason: String?, source: String) {
        self.from = from
        self.to = to
        self.kind = kind
        self.applied = applied
        self.reason = reason
        self.source = source
    }
}

/// The outcome of one `it` of a flow file.
public struct FlowTestResult: Hashable, Sendable {
    /// The flow file (`flows/auth.lua`).
    public let file: String
    /// The line where the test's function starts.
    public let line: Int?
    /// The enclosing `describe` names, outermost first, then the test's own name.
    public let path: [String]
    /// Why it failed; empty when it passed.
    public let failures: [FlowTestFailure]
    /// What the flow and the rules printed during the test.
    public let output: [String]
    /// The navigation steps of the test, in order.
    public let steps: [FlowNavigationStep]
    /// How long it took, in seconds.
    public let duration: TimeInterval

    /// Creates a result.
    public init(
        file: String, line: Int?, path: [String], failures: [FlowTestFailure], output: [String] = [],
        steps: [FlowNavigationStep] = [], duration: TimeInterval = 0
    ) {
        self.file = file
        self.line = line
        self.path = path
        self.failures = failures
        self.output = output
        self.steps = steps
        self.duration = duration
    }

    /// Whether the test passed.
    public var passed: Bool { failures.isEmpty }

    /// The test's name: its `describe` names and its own, joined with ` › `.
    public var name: String { path.joined(separator: " › ") }
}

/// Everything a flow run produced: one result per test, and the scripts that did not load.
public struct FlowTestReport: Equatable, Sendable {
    /// The tests, in file order then declaration order.
    public var results: [FlowTestResult]
    /// Scripts that did not load (manifest, rules, a flow file): nothing of them ran.
    public var loadErrors: [FlowScriptError]
    /// Warnings noticed along the way (style attributes ignored, deep-link patterns shadowed).
    public var diagnostics: [FlowScriptDiagnostic]
    /// The project directory the file names are relative to (`flows/auth.lua`), if known.
    public var directory: URL?

    /// Creates a report.
    public init(results: [FlowTestResult] = [], loadErrors: [FlowScriptError] = [], diagnostics: [FlowScriptDiagnostic] = []) {
        self.results = results
        self.loadErrors = loadErrors
        self.diagnostics = diagnostics
    }

    /// How many tests passed.
    public var passedCount: Int { results.count(where: \.passed) }

    /// How many tests failed.
    public var failedCount: Int { results.count - passedCount }

    /// Whether every test passed and every script loaded.
    public var succeeded: Bool { loadErrors.isEmpty && failedCount == 0 }

    /// The absolute path of a file the report names (`flows/auth.lua`), when the directory is known.
    public func path(of file: String) -> String {
        guard let directory, !file.hasPrefix("/") else { return file }
        return directory.appendingPathComponent(file).path
    }

    /// `N passed, N failed`.
    public var summary: String { "\(passedCount) passed, \(failedCount) failed" }
}
