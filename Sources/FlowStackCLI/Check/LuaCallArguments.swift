import FlowScript
import FlowStackCore
import FlowTesting
import Foundation

/// Reading the arguments of a call from its tokens, for the static checks and the graph: where
/// each argument starts and ends, and the dialog id an argument names.
extension Array where Element == LuaToken {
    /// The index of the token that closes the bracket opened at `open` (`(`, `{` or `[`), or
    /// the end of the tokens when it is not closed.
    func closing(of open: Int) -> Int {
        var depth = 0
        var index = open
        while index < count {
            let token = self[index]
            if token.kind == .symbol, ["(", "{", "["].contains(token.text) { depth += 1 }
            if token.kind == .symbol, [")", "}", "]"].contains(token.text) {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return count
    }

    /// The arguments of the call whose function name ends at `name`: one token range per
    /// argument, split at the commas of the outermost level (not inside brackets nor inside a
    /// function's body). `f "x"` and `f{...}` have one.
    func callArguments(after name: Int) -> [Range<Int>] {
        let next = name + 1
        guard next < count else { return [] }
        if self[next].kind == .string { return [next..<next + 1] }
        guard self[next].kind == .symbol else { return [] }
        if self[next].text == "{" { return [next..<Swift.min(closing(of: next) + 1, count)] }
        guard self[next].text == "(" else { return [] }
        let close = closing(of: next)
        var arguments: [Range<Int>] = []
        var start = next + 1
        var depth = 0
        var index = next + 1
        while index < close {
            let token = self[index]
            if token.kind == .symbol, ["(", "{", "["].contains(token.text) { depth += 1 }
            if token.kind == .symbol, [")", "}", "]"].contains(token.text) { depth -= 1 }
            // A function's body (`function(a) return x, y end`) holds commas of its own.
            if token.kind == .name, ["function", "if", "do", "repeat"].contains(token.text) { depth += 1 }
            if token.kind == .name, ["end", "until"].contains(token.text) { depth -= 1 }
            if depth == 0, token.kind == .symbol, token.text == "," {
                arguments.append(start..<index)
                start = index + 1
            }
            index += 1
        }
        if start < close { arguments.append(start..<close) }
        return arguments
    }

    /// The string literal that is the whole argument, or `nil`.
    func stringLiteral(_ argument: Range<Int>?) -> LuaToken? {
        guard let argument, argument.count == 1, self[argument.lowerBound].kind == .string else { return nil }
        return self[argument.lowerBound]
    }

    /// The dialog id an argument spells: a string literal (`"networkError"`), or the literal
    /// `id` field of a table constructor (`{ id = "deleteConfirmation", item = "42" }`).
    func dialogID(_ argument: Range<Int>?) -> LuaToken? {
        if let literal = stringLiteral(argument) { return literal }
        guard let argument, !argument.isEmpty, self[argument.lowerBound].text == "{",
              self[argument.lowerBound].kind == .symbol else { return nil }
        var depth = 0
        for index in argument {
            let token = self[index]
            if token.kind == .symbol, ["(", "{", "["].contains(token.text) { depth += 1 }
            if token.kind == .symbol, [")", "}", "]"].contains(token.text) { depth -= 1 }
            guard depth == 1, token.kind == .name, token.text == "id", index + 2 < argument.upperBound,
                  self[index + 1].text == "=", self[index + 2].kind == .string,
                  [",", ";", "{"].contains(self[index - 1].text),
                  index + 3 >= argument.upperBound || [",", ";", "}"].contains(self[index + 3].text) else { continue }
            return self[index + 2]
        }
        return nil
    }
}

/// The dialog policies scripts spell (`router.showDialog`, `flow.redirect("dialog", ...)`,
/// `flow.op("showDialog", ...)`), checked the way the flow runner checks them.
enum DialogPolicyNames {
    /// `"replace"`, `"replaceKeepingQueue"`, `"queue"`, `"ignoreIfVisible"`.
    static let all = FlowLuaSurface.policyNames

    /// The problem with a policy literal, or `nil` when it is one of the four.
    static func problem(_ name: String) -> String? {
        guard !all.contains(name) else { return nil }
        let hint = FlowSuggestion.closest(to: name, in: all).map { " (did you mean '\($0)'?)" } ?? ""
        return "unknown dialog policy '\(name)'\(hint); policies are \(all.joined(separator: ", "))"
    }
}
