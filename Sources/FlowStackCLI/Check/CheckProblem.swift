import FlowLua
import FlowScript
import Foundation

/// One problem `flowstack check` reports: `file:line: error: message`.
struct CheckProblem: Hashable, Comparable {
    enum Severity: String, Hashable {
        case error, warning
    }

    let severity: Severity
    let file: String?
    let line: Int?
    let message: String

    init(_ severity: Severity, file: String?, line: Int?, _ message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.message = message
    }

    init(error: FlowScriptError) {
        self.init(.error, file: error.file, line: error.line, error.message)
    }

    /// The line as printed.
    var description: String {
        let location = [file, line.map(String.init)].compactMap { $0 }.joined(separator: ":")
        return (location.isEmpty ? "" : location + ": ") + "\(severity.rawValue): \(message)"
    }

    /// By file, then line, then message; problems without a file first.
    static func < (lhs: CheckProblem, rhs: CheckProblem) -> Bool {
        if lhs.file != rhs.file { return (lhs.file ?? "") < (rhs.file ?? "") }
        if lhs.line != rhs.line { return (lhs.line ?? 0) < (rhs.line ?? 0) }
        return lhs.message < rhs.message
    }
}
