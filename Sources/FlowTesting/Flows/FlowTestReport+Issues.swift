import Foundation

/// One failure of a flow run, located for a test framework: what to report and where.
public struct FlowTestIssue: Hashable, Sendable, CustomStringConvertible {
    /// The test's name and the failure (expectation, expected, actual, stacks), or the load error.
    public let message: String
    /// The absolute path of the flow (or rules) file.
    public let filePath: String
    /// The line in that file (1 when unknown).
    public let line: Int

    /// Creates an issue.
    package init(message: String, filePath: String, line: Int) {
        self.message = message
        self.filePath = filePath
        self.line = line
    }

    /// `path:line: message`.
    public var description: String { "\(filePath):\(line): \(message)" }
}

extension FlowTestReport {
    /// Every failure and every script that did not load, with the absolute file path and line,
    /// ready for a test framework. In Swift Testing:
    ///
    /// ```swift
    /// for issue in report.issues {
    ///     Issue.record(
    ///         Comment(rawValue: issue.message),
    ///         sourceLocation: SourceLocation(fileID: "Flows/\(issue.filePath)", filePath: issue.filePath, line: issue.line, column: 1))
    /// }
    /// ```
    ///
    /// (FlowScript itself does not import Testing: apps link it into their shipping binary.)
    public var issues: [FlowTestIssue] {
        var issues: [FlowTestIssue] = []
        for error in loadErrors where !results.contains(where: { $0.file == error.file && !$0.passed }) {
            issues.append(FlowTestIssue(
                message: "did not load: \(error.message)", filePath: path(of: error.file ?? "flowstack"), line: error.line ?? 1))
        }
        for result in results {
            for failure in result.failures {
                issues.append(FlowTestIssue(
                    message: "\(result.name): \(failure.description)",
                    filePath: path(of: failure.file ?? result.file), line: failure.line ?? result.line ?? 1))
            }
        }
        return issues
    }
}
