import FlowStackCore
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
    package let steps: [FlowNavigationStep]
    /// How long it took, in seconds.
    public let duration: TimeInterval
    /// Whether the test is pending (`pending(name)`, or `it(name)` without a function): listed
    /// and reported, not run.
    public let isPending: Bool
    /// Whether this stands for a flow file that did not load (named "did not load"), not a test.
    package let isLoadFailure: Bool
    /// Errors the rules raised during the test (a rule that failed, so the router refused the
    /// navigation or dialog it decided), at the rule's `file:line`, each once. They are listed
    /// in reports; with `FlowTestRunner.Options(failOnScriptErrors: true)` (`--strict`) they are
    /// failures of the test too.
    public let scriptErrors: [FlowTestFailure]
    /// Whether the test did not run because the rules did not load (its one failure says so;
    /// the load error is the report's, said once).
    package let isStoppedByRulesLoadError: Bool

    /// Creates a result.
    package init(
        file: String, line: Int?, path: [String], failures: [FlowTestFailure], output: [String] = [],
        steps: [FlowNavigationStep] = [], duration: TimeInterval = 0, isPending: Bool = false, isLoadFailure: Bool = false,
        scriptErrors: [FlowTestFailure] = [], isStoppedByRulesLoadError: Bool = false
    ) {
        self.isStoppedByRulesLoadError = isStoppedByRulesLoadError
        self.scriptErrors = scriptErrors
        self.isPending = isPending
        self.isLoadFailure = isLoadFailure
        self.file = file
        self.line = line
        self.path = path
        self.failures = failures
        self.output = output
        self.steps = steps
        self.duration = duration
    }

    /// Whether the test passed (a pending test neither passes nor fails).
    public var passed: Bool { failures.isEmpty && !isPending }

    /// Whether the test failed.
    public var failed: Bool { !failures.isEmpty }

    /// The tags in the test's names: the words after `#` (`"pays #slow"` has the tag `slow`).
    package var tags: [String] { FlowTestResult.tags(in: path) }

    /// The `#tag` words of names, without the `#`, in order, without repeats.
    static func tags(in names: [String]) -> [String] {
        var tags: [String] = []
        for name in names {
            for match in name.matches(of: /#([A-Za-z0-9_\-]+)/) where !tags.contains(String(match.output.1)) {
                tags.append(String(match.output.1))
            }
        }
        return tags
    }

    /// The test's name: its `describe` names and its own, joined with ` › `.
    public var name: String { path.joined(separator: " › ") }
}
