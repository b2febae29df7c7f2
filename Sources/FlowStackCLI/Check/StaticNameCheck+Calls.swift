import FlowScript
import FlowStackCore
import Foundation

/// The checks of one call that read the surface's description: how many arguments a function
/// takes, which operation kinds `flow.redirect`, `flow.op` and `flow.precondition` accept, and
/// which parameters a deep link's pattern produces.
extension StaticNameCheck {
    /// Too few arguments (an error: the call fails when it runs) or too many (a warning: Lua
    /// drops them without a word), or nil. A last argument that is a call or `...` may give any
    /// number of values: only the ones before it are counted for sure.
    static func arityProblem(
        _ function: FlowLuaFunction, arguments: [Range<Int>], tokens: [LuaToken]
    ) -> (severity: CheckProblem.Severity, message: String)? {
        let minimum = function.minimumArguments
        let maximum = function.maximumArguments
        let expands = arguments.last.map { expandsToValues($0, tokens: tokens) } ?? false
        let certain = expands ? arguments.count - 1 : arguments.count
        let takes: String
        switch (minimum, maximum) {
        case (let low, let high?) where low == high: takes = "\(low) argument\(low == 1 ? "" : "s")"
        case (let low, let high?): takes = "\(low) to \(high) arguments"
        case (let low, nil): takes = "at least \(low) argument\(low == 1 ? "" : "s")"
        }
        let shape = "\(function.qualifiedName)(\(function.signature))"
        if !expands, certain < minimum {
            let missing = function.parameters.filter { !$0.isOptional }.dropFirst(certain).map(\.name)
            return (.error, "\(function.qualifiedName) takes \(takes), got \(certain): \(shape) (missing \(missing.joined(separator: ", ")))")
        }
        if let maximum, certain > maximum {
            return (.warning, "\(function.qualifiedName) takes \(takes), got \(certain) (Lua drops the extra ones): \(shape)")
        }
        return nil
    }

    /// Whether an argument may stand for several values: `...`, or a call (`f(x)`, `t:m()`,
    /// `f "x"`, `f{}`) rather than a parenthesised expression.
    private static func expandsToValues(_ argument: Range<Int>, tokens: [LuaToken]) -> Bool {
        guard let last = argument.last else { return false }
        let token = tokens[last]
        if token.kind == .symbol, token.text == "..." { return argument.count == 1 }
        if token.kind == .string, last > argument.lowerBound { return tokens[last - 1].kind == .name }
        guard token.kind == .symbol, token.text == ")" || token.text == "}" else { return false }
        // The bracket that opens the last one: a call when a name, `)`, `]` or a string precedes it.
        var depth = 0
        var index = last
        while index >= argument.lowerBound {
            let current = tokens[index]
            if current.kind == .symbol, [")", "}", "]"].contains(current.text) { depth += 1 }
            if current.kind == .symbol, ["(", "{", "["].contains(current.text) {
                depth -= 1
                if depth == 0 { break }
            }
            index -= 1
        }
        guard index > argument.lowerBound else { return false }
        let before = tokens[index - 1]
        return before.kind == .name && !["and", "or", "not", "return", "in"].contains(before.text)
            || before.kind == .symbol && [")", "]"].contains(before.text) || before.kind == .string
    }

    /// The problem with the literal first argument of `flow.<member>` when it is not an
    /// operation kind that function accepts; a route or dialog name there means the kind was
    /// left out.
    func kindProblem(_ member: String, _ kind: String, hasMore: Bool) -> String? {
        var accepted = FlowLuaSurface.kindNames
        switch member {
        case "redirect": accepted.append("dialog")
        case "op": accepted.append("showDialog")
        case "precondition": accepted.append("*")
        default: return nil
        }
        guard !accepted.contains(kind) else { return nil }
        let list = "kinds are " + accepted.map { $0 == "*" ? "\"*\"" : $0 }.joined(separator: ", ")
        let call = "flow.\(member)"
        if member != "precondition", let manifest {
            let what = manifest.routes[kind] != nil ? "a route" : manifest.dialogs.contains(kind) ? "a dialog" : nil
            if let what {
                let example = what == "a dialog" ? "\(call)(\"\(member == "op" ? "showDialog" : "dialog")\", \"\(kind)\"\(hasMore ? ", ..." : ""))"
                    : "\(call)(\"push\", \"\(kind)\"\(hasMore ? ", ..." : ""))"
                return "\(call) is missing its operation kind: '\(kind)' is \(what), and the first argument is the kind; "
                    + "write \(example); \(list)"
            }
        }
        let hint = FlowSuggestion.closest(to: kind, in: accepted).map { " (did you mean '\($0)'?)" } ?? ""
        return "unknown operation kind '\(kind)' in \(call)\(hint); \(list)"
    }

    /// The problem with `flow.redirect(kind, route, ...)` or a deep link's `flow.op(kind, route)`
    /// when the manifest declares the operations that open `route` (`opens = { "sheet" }`) and
    /// `kind` is not one of them: explore and diff never try that way in, so what it leads to
    /// is never explored.
    func openingProblem(_ member: String, _ kind: String, route: String) -> String? {
        guard FlowManifest.RouteSpec.openingKinds.contains(kind), let opens = manifest?.routes[route]?.opens, !opens.contains(kind)
        else { return nil }
        let listed = opens.map { "\"\($0)\"" }.joined(separator: ", ")
        return "flow.\(member) opens '\(route)' with \(kind), but routes.lua declares it opens only with \(listed) "
            + "(\(route) = { opens = { \(listed) } }): explore and diff never try \(kind) \(route); "
            + "add \"\(kind)\" to its opens, or open it with \(opens.count == 1 ? "that operation" : "one of those")"
    }

    /// A navigation kind that takes a route (as its `router` function's first parameter does)
    /// given none: `flow.redirect("push")`, `flow.op("sheet", nil)`.
    static func missingRoute(_ member: String, _ kind: String, _ arguments: [Range<Int>], _ tokens: [LuaToken]) -> String? {
        guard FlowLuaSurface.kindNames.contains(kind), let navigation = FlowLuaSurface.function(.router, kind),
              let first = navigation.parameters.first, !first.isOptional else { return nil }
        let given = arguments.count >= 2 && !(arguments[1].count == 1 && tokens[arguments[1].lowerBound].text == "nil"
            && tokens[arguments[1].lowerBound].kind == .name)
        guard !given else { return nil }
        let reason = member == "redirect" ? ", reason" : ""
        return "flow.\(member)(\"\(kind)\") needs \(first.name == "routes" ? "a list of routes" : "a route"): "
            + "flow.\(member)(\"\(kind)\", \(first.name)\(reason))"
    }

    /// The parameters a deep link's handler reads (`p.code`, `p["code"]`) that its pattern
    /// cannot produce and that look like a slip: a literal segment of that name (a parameter
    /// missing its colon) or a near parameter name. Any other name is a query item.
    func linkParameterProblems(_ arguments: [Range<Int>], tokens: [LuaToken]) -> [(Int, String)] {
        guard arguments.count >= 2, let pattern = tokens[arguments[0]].singleString else { return [] }
        let handler = arguments[1]
        guard let open = handler.first(where: { tokens[$0].kind == .symbol && tokens[$0].text == "(" }),
              tokens[handler.lowerBound].text == "function", open + 1 < handler.upperBound,
              tokens[open + 1].kind == .name else { return [] }
        let parameter = tokens[open + 1].text
        let segments = pattern.split(separator: "/").map(String.init)
        var produced = Set(segments.filter { $0.hasPrefix(":") }.map { String($0.dropFirst()) })
        if segments.last == "*" { produced.insert("*") }
        var problems: [(Int, String)] = []
        var reported: Set<String> = []
        var index = open + 2
        while index + 2 < handler.upperBound {
            defer { index += 1 }
            let token = tokens[index]
            guard token.kind == .name, token.text == parameter, tokens[index - 1].text != ".",
                  tokens[index - 1].text != ":" else { continue }
            let field: LuaToken
            if tokens[index + 1].text == ".", tokens[index + 2].kind == .name {
                field = tokens[index + 2]
            } else if tokens[index + 1].text == "[", tokens[index + 2].kind == .string {
                field = tokens[index + 2]
            } else {
                continue
            }
            guard !produced.contains(field.text), reported.insert(field.text).inserted else { continue }
            let parameters = produced.isEmpty ? "none" : produced.sorted().map { $0 == "*" ? "*" : ":" + $0 }.joined(separator: ", ")
            var message = "flow.deeplink(\"\(pattern)\"): the handler reads \(parameter).\(field.text), which the pattern cannot "
                + "produce (its parameters: \(parameters)); only a query item ?\(field.text)=... would set it"
            // Reported only where it looks like a slip: a literal segment of that name (meant as
            // a parameter) or a near parameter name. Any other name is a query item the link
            // is meant to carry (`/search?q=pho` read as p.q): query items join p.
            if segments.contains(field.text) {
                let fixed = "/" + segments.map { $0 == field.text ? ":" + $0 : $0 }.joined(separator: "/")
                message += " (did you mean '\(fixed)'?)"
            } else if let close = Self.nearParameter(field.text, in: produced.filter { $0 != "*" }.sorted()) {
                message += " (did you mean '\(parameter).\(close)'?)"
            } else {
                continue
            }
            problems.append((field.line, message))
        }
        return problems
    }
}

extension StaticNameCheck {
    /// The `return`s of a guard or precondition (the function literal spanning `rule`, not the
    /// functions inside it) whose first value is a literal that is neither nothing, a boolean
    /// nor a redirect: a string, a number or a table constructor, which block the operation at
    /// run time ("a guard must return ..."). A string that names a route is told to redirect.
    static func literalReturnProblems(_ function: String, rule: Range<Int>, tokens: [LuaToken]) -> [(Int, String)] {
        guard let first = rule.first, tokens[first].kind == .name, tokens[first].text == "function" else { return [] }
        var problems: [(Int, String)] = []
        // The blocks open at each token: "function" entries count the nesting of functions.
        var blocks: [String] = []
        var index = first
        while index < rule.upperBound {
            let token = tokens[index]
            defer { index += 1 }
            guard token.kind == .name else { continue }
            switch token.text {
            case "function", "if", "do", "repeat":
                blocks.append(token.text)
            case "end", "until":
                _ = blocks.popLast()
                if blocks.isEmpty { return problems }
            case "return" where blocks.filter({ $0 == "function" }).count == 1 && index + 1 < rule.upperBound:
                let value = tokens[index + 1]
                let what: String
                switch value.kind {
                case .string: what = "the string \"\(value.text)\""
                case .number: what = "the number \(value.text)"
                case .symbol where value.text == "{": what = "a table"
                default: continue
                }
                // Only a whole value: `return "a" .. b` and `return {}` indexed are left alone.
                if index + 2 < rule.upperBound, tokens[index + 2].kind == .symbol,
                   ["..", ".", "[", ":", "("].contains(tokens[index + 2].text) { continue }
                var message = "\(function): a rule returns \(what), which is neither nothing, true, false (and a reason) nor "
                    + "flow.redirect(...): at run time it blocks the operation as a script error"
                if value.kind == .string {
                    message += " (to send the person to '\(value.text)', return flow.redirect(\"sheet\", \"\(value.text)\", reason); "
                        + "to block with a reason, return false, \"\(value.text)\")"
                }
                problems.append((value.line, message))
            default:
                break
            }
        }
        return problems
    }

    /// The pattern parameter a read name is a slip of, or `nil`: the name has at least 3
    /// characters and is one edit (a letter added, dropped, changed or two swapped) from a
    /// parameter of at least 3 characters; two edits for names of 6 or more. Shorter names are
    /// query items (`p.q`, `p.ep` beside `:id`), never taken for slips.
    static func nearParameter(_ name: String, in parameters: [String]) -> String? {
        guard name.count >= 3 else { return nil }
        let allowed = name.count >= 6 ? 2 : 1
        return parameters
            .filter { $0.count >= 3 }
            .map { ($0, FlowSuggestion.editDistance(name.lowercased(), $0.lowercased())) }
            .filter { $0.1 <= allowed }
            .min { $0.1 < $1.1 }?.0
    }
}

extension ArraySlice where Element == LuaToken {
    /// The text of the one string literal the slice is, or nil.
    var singleString: String? {
        guard count == 1, let token = first, token.kind == .string else { return nil }
        return token.text
    }
}
