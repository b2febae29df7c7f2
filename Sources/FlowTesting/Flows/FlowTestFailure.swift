import FlowStackCore
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
    /// Where the failing line was called from, innermost first (`flows/a.lua:12`), when the
    /// expectation sits in a helper function.
    public let traceback: [String]
    /// Where two tables differ, one line per difference (`.name: expected "a", got "b"`).
    public let diff: [String]

    /// Creates a failure.
    package init(
        kind: Kind, file: String?, line: Int?, message: String, expected: String? = nil, actual: String? = nil,
        stacks: [String] = [], traceback: [String] = [], diff: [String] = []
    ) {
        self.kind = kind
        self.file = file
        self.line = line
        self.message = message
        self.expected = expected
        self.actual = actual
        self.stacks = stacks
        self.traceback = traceback
        self.diff = diff
    }

    /// The same failure with its message prefixed (`before_each failed: ...`).
    func prefixed(_ prefix: String) -> FlowTestFailure {
        FlowTestFailure(
            kind: kind, file: file, line: line, message: prefix + message, expected: expected, actual: actual,
            stacks: stacks, traceback: traceback, diff: diff)
    }

    /// `file:line`, `file`, or an empty string.
    package var location: String {
        switch (file, line) {
        case let (file?, line?): return "\(file):\(line)"
        case let (file?, nil): return file
        default: return ""
        }
    }

    /// Every line of the failure: location and message, where it was called from, then the
    /// differences (for tables) or the expected and actual values, then the stacks.
    public var description: String {
        lines().joined(separator: "\n")
    }

    /// The lines `description` joins, each piece of text passed through `shown` first (the
    /// pretty report escapes line breaks and controls there, so each piece stays on its line).
    package func lines(shown: (String) -> String = { $0 }) -> [String] {
        var lines = [shown((location.isEmpty ? "" : location + ": ") + message)]
        lines += traceback.map { "called from \(shown($0))" }
        if !diff.isEmpty {
            lines.append("differences (expected, got):")
            lines += diff.map { "  " + shown($0) }
        } else {
            if let expected { lines.append("expected: \(shown(expected))") }
            if let actual { lines.append("actual:   \(shown(actual))") }
        }
        if !stacks.isEmpty {
            lines.append("stacks:")
            lines += stacks.map { "  " + shown($0) }
        }
        return lines
    }
}
