import FlowStack
import Foundation

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
