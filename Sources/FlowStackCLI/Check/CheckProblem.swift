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

    /// The kinds of findings, as `-- flowstack: ignore <kind>` names them.
    static let kinds = [
        "route", "dialog", "fact", "tab", "call", "global", "kind", "options", "link-parameter", "pattern",
        "style", "return", "host", "experiment", "load",
    ]

    /// The kind of this finding (one of `kinds`), read from what it says.
    var kind: String {
        let text = message
        if text.contains("the handler reads") { return "link-parameter" }
        if text.contains("a rule returns") { return "return" }
        if text.contains("flow.redirect's option") || text.contains("in flow.redirect's options") || text.hasPrefix("resume is an option") {
            return "options"
        }
        if text.hasPrefix("unknown route") || text.hasPrefix("route '") { return "route" }
        if text.contains("experiment") { return "experiment" }
        if text.contains("dialog") && (text.hasPrefix("unknown dialog") || text.contains("policy")) { return "dialog" }
        if text.contains("fact") { return "fact" }
        if text.hasPrefix("unknown tab") || text.contains("tab '") { return "tab" }
        if text.contains("undeclared global") || text.hasPrefix("global ") { return "global" }
        if text.contains("operation kind") || text.contains("needs a route") || text.contains("needs a list of routes") { return "kind" }
        if text.contains("shadowed") || text.contains("duplicate") || text.contains("pattern") { return "pattern" }
        if text.contains("style attribute") || text.contains("style rule") { return "style" }
        if text.contains("host.") { return "host" }
        if text.contains(" has no '") || text.contains(" takes ") || text.contains("is not one of") || text.contains("cannot use router")
            || text.contains("exists only in flow tests") {
            return "call"
        }
        return "load"
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
