import FlowStackCore
import Foundation

/// The options table of `flow.redirect(kind, route, reason, { resume = true })`, checked from
/// its tokens as the rules prelude checks it when the rule runs.
enum RedirectOptionsCheck {
    /// The options a navigation redirect takes.
    static let names = ["resume"]
    /// The options a dialog redirect takes (its fourth argument may be a policy instead).
    static let dialogNames = ["resume", "policy"]

    /// The problems (line, message) of a redirect's fourth argument: a table constructor whose
    /// keys are known options and whose `resume` is a boolean (a dialog redirect's may be its
    /// policy, checked with the dialog, or `{ resume = true, policy = "queue" }`).
    static func problems(_ tokens: [LuaToken], options argument: Range<Int>, dialog: Bool = false) -> [(line: Int, message: String)] {
        guard let first = argument.first else { return [] }
        let opening = tokens[first]
        let names = dialog ? dialogNames : names
        if dialog, argument.count == 1, opening.kind == .string { return [] }
        if argument.count == 1, opening.kind == .string || opening.kind == .number {
            return [(opening.line, "flow.redirect's fourth argument is an options table, such as { resume = true }; got a \(opening.kind == .string ? "string" : "number")")]
        }
        guard opening.kind == .symbol, opening.text == "{" else { return [] }
        var problems: [(line: Int, message: String)] = []
        for (key, value) in fields(tokens, table: argument) {
            guard let key else {
                problems.append((tokens[value.lowerBound].line, "flow.redirect's options are named, as in { resume = true }"))
                continue
            }
            let name = tokens[key].text
            guard names.contains(name) else {
                let hint = FlowSuggestion.closest(to: name, in: names).map { " (did you mean '\($0)'?)" } ?? ""
                problems.append((tokens[key].line, "unknown option '\(name)' in flow.redirect's options\(hint); the options are: \(names.joined(separator: ", "))"))
                continue
            }
            if name == "policy" {
                if value.count == 1, tokens[value.lowerBound].kind == .string,
                   let problem = DialogPolicyNames.problem(tokens[value.lowerBound].text) {
                    problems.append((tokens[value.lowerBound].line, problem))
                }
                continue
            }
            if value.count == 1, let literal = literalType(tokens[value.lowerBound]), literal != "boolean" {
                problems.append((tokens[value.lowerBound].line,
                                 "flow.redirect's option 'resume' must be a boolean (true holds the refused navigation until the rules allow it), got \(literal)"))
            }
        }
        return problems
    }

    /// A `resume` option where it does nothing: in `flow.op` (a deep link's step); the line, or `nil`.
    static func misplacedResume(_ tokens: [LuaToken], in argument: Range<Int>) -> Int? {
        guard let first = argument.first, tokens[first].kind == .symbol, tokens[first].text == "{" else { return nil }
        return fields(tokens, table: argument).first { key, _ in key.map { tokens[$0].text == "resume" } ?? false }
            .flatMap { key, _ in key.map { tokens[$0].line } }
    }

    /// The type of a literal token (`"string"`, `"number"`, `"boolean"`, `"nil"`), or `nil`
    /// when it is a name or a symbol (its type is not known without running it).
    private static func literalType(_ token: LuaToken) -> String? {
        switch token.kind {
        case .string: return "string"
        case .number: return "number"
        case .name: return ["true", "false"].contains(token.text) ? "boolean" : token.text == "nil" ? "nil" : nil
        case .symbol: return token.text == "{" ? "table" : nil
        }
    }

    /// The fields at depth 1 of the table constructor spanning `table`: the key token of
    /// `name = value` (nil for a positional item) and the value's tokens.
    private static func fields(_ tokens: [LuaToken], table: Range<Int>) -> [(key: Int?, value: Range<Int>)] {
        let close = min(tokens.closing(of: table.lowerBound), table.upperBound)
        var fields: [(key: Int?, value: Range<Int>)] = []
        var start = table.lowerBound + 1
        var depth = 0
        var index = start
        func finish(_ end: Int) {
            guard start < end else { return }
            if end - start >= 3, tokens[start].kind == .name, tokens[start + 1].kind == .symbol, tokens[start + 1].text == "=" {
                fields.append((start, start + 2..<end))
            } else if !(tokens[start].kind == .symbol && tokens[start].text == "[") {
                fields.append((nil, start..<end))
            }
        }
        while index < close {
            let token = tokens[index]
            if token.kind == .symbol, ["(", "{", "["].contains(token.text) { depth += 1 }
            if token.kind == .symbol, [")", "}", "]"].contains(token.text) { depth -= 1 }
            if depth == 0, token.kind == .symbol, [",", ";"].contains(token.text) {
                finish(index)
                start = index + 1
            }
            index += 1
        }
        finish(close)
        return fields
    }
}
