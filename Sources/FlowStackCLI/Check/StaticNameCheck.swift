import FlowScript
import FlowStackCore
import FlowTesting
import Foundation

/// Finds names a script spells that the manifest does not declare, and calls to functions
/// that `flow`, `router`, `app` and `expect` do not have, by reading the source (without
/// running it): route names in navigation calls, redirects, guards, `.name == "..."`
/// comparisons and `{ name = "..." }` tables; dialog ids (in `router.showDialog` and `showDialogAsync`,
/// `flow.redirect("dialog", ...)`, `flow.dialog_guard`, `flow.op("showDialog", ...)` and
/// `.dialog == "..."` comparisons) and dialog policies; fact names in `facts.x` and in
/// `app.facts{ ... }` / `facts = { ... }` tables; operation kinds (a kind left out, a route
/// where the kind goes); argument counts; deep-link parameters a pattern cannot produce; and
/// undeclared globals, read, called or indexed. What each function takes, and which of its
/// arguments is a route, a dialog or a policy, comes from ``FlowLuaSurface``.
struct StaticNameCheck {
    let manifest: FlowManifest?
    /// The `host.<name>` functions the rules call (to warn about stubs nothing calls).
    let ruleHosts: Set<String>
    /// The names the rules files declare (they share one VM).
    var rulesDeclarations: Set<String> = []

    private enum Role { case rules, flow, explore }

    func check(rules source: FlowRulesSource) -> [CheckProblem] {
        check(source, role: .rules)
    }

    /// An `explore/*.lua` file: its globals (`invariant` and Lua's) and its calls' arity.
    func check(explore source: FlowRulesSource) -> [CheckProblem] {
        check(source, role: .explore)
    }

    func check(flow source: FlowRulesSource) -> [CheckProblem] {
        check(source, role: .flow)
    }

    private func check(_ source: FlowRulesSource, role: Role) -> [CheckProblem] {
        let tokens = LuaTokenizer.tokens(source.text)
        var problems: [CheckProblem] = []
        let expectedFailures = role == .flow ? Self.expectedFailureLines(tokens) : []
        func report(_ line: Int, _ message: String?, severity: CheckProblem.Severity = .error) {
            guard let message, !expectedFailures.contains(line) else { return }
            problems.append(CheckProblem(severity, file: source.name, line: line, message))
        }
        func token(_ index: Int) -> LuaToken? { tokens.indices.contains(index) ? tokens[index] : nil }
        func isSymbol(_ index: Int, _ text: String) -> Bool { token(index).map { $0.kind == .symbol && $0.text == text } ?? false }
        func isName(_ index: Int, _ text: String? = nil) -> Bool {
            guard let token = token(index), token.kind == .name else { return false }
            return text == nil || token.text == text
        }
        /// The index of the first argument of a call whose function name ends at `index`
        /// (`f(x`, `f "x"`, `f{`), and whether it is a table constructor.
        func firstArgument(after index: Int) -> Int? {
            if isSymbol(index + 1, "(") { return index + 2 }
            if token(index + 1)?.kind == .string || isSymbol(index + 1, "{") { return index + 1 }
            return nil
        }
        /// The tokens at depth 1 of the table constructor opened at `open`.
        func tableItems(_ open: Int) -> [Int] {
            guard isSymbol(open, "{") else { return [] }
            var depth = 0
            var items: [Int] = []
            var index = open
            while let current = token(index) {
                if current.kind == .symbol, ["{", "(", "["].contains(current.text) { depth += 1 }
                if current.kind == .symbol, ["}", ")", "]"].contains(current.text) {
                    depth -= 1
                    if depth == 0 { break }
                }
                if depth == 1, index != open { items.append(index) }
                index += 1
            }
            return items
        }
        /// The string literal at `index` when it is a whole name: not part of a concatenation
        /// (`"step" .. n` builds a name the check cannot know; only literal names are checked).
        func literal(_ index: Int) -> LuaToken? {
            guard let token = token(index), token.kind == .string, !isSymbol(index - 1, ".."), !isSymbol(index + 1, "..")
            else { return nil }
            return token
        }
        func routeName(_ index: Int) {
            guard let token = literal(index) else { return }
            report(token.line, routeProblem(token.text))
        }
        // Tabs: a tab name given as a literal.
        func tabName(_ index: Int) {
            guard let token = literal(index) else { return }
            report(token.line, tabProblem(token.text))
        }
        /// A dialog given at `arguments[dialog]` and a policy at `arguments[policy]`.
        func dialogCall(_ arguments: [Range<Int>], dialog: Int, policy: Int) {
            if arguments.indices.contains(dialog), let id = tokens.dialogID(arguments[dialog]) {
                report(id.line, dialogProblem(id.text))
            }
            if arguments.indices.contains(policy), let name = tokens.stringLiteral(arguments[policy]) {
                report(name.line, DialogPolicyNames.problem(name.text))
            }
        }
        func factKeys(inTable open: Int) {
            for item in tableItems(open) where isName(item) && isSymbol(item + 1, "=") {
                if isSymbol(item - 1, "{") || isSymbol(item - 1, ",") || isSymbol(item - 1, ";") {
                    report(tokens[item].line, factProblem(tokens[item].text))
                }
            }
        }

        /// The arity of a call to a function of the surface, and its route, dialog and policy
        /// arguments, by the types the surface gives its parameters.
        func surfaceCall(_ owner: FlowLuaOwner, _ member: String, at nameIndex: Int) {
            guard let function = FlowLuaSurface.function(owner, member), !function.isProperty,
                  isSymbol(nameIndex + 1, "(") || isSymbol(nameIndex + 1, "{") || token(nameIndex + 1)?.kind == .string
            else { return }
            let arguments = tokens.callArguments(after: nameIndex)
            if let problem = Self.arityProblem(function, arguments: arguments, tokens: tokens) {
                report(tokens[nameIndex].line, problem.message, severity: problem.severity)
            }
            guard owner == .router || owner == .app else { return }
            for (position, parameter) in function.parameters.enumerated() where arguments.indices.contains(position) {
                let argument = arguments[position]
                switch parameter.type {
                case "RouteLike":
                    if argument.count == 1 { routeName(argument.lowerBound) }
                case "RouteLike[]":
                    for item in tableItems(argument.lowerBound) where isSymbol(item - 1, "{") || isSymbol(item - 1, ",") {
                        routeName(item)
                    }
                case "Dialog":
                    if let id = tokens.dialogID(argument) { report(id.line, dialogProblem(id.text)) }
                case "DialogPolicy":
                    if let name = tokens.stringLiteral(argument) { report(name.line, DialogPolicyNames.problem(name.text)) }
                case "TabName":
                    if argument.count == 1 { tabName(argument.lowerBound) }
                default:
                    // A type that lists its values ("inclusive"|"exclusive"): a literal must be one of them.
                    let values = parameter.type.split(separator: "|").map(String.init)
                    guard values.allSatisfy({ $0.count >= 2 && $0.hasPrefix("\"") && $0.hasSuffix("\"") }),
                          let literal = tokens.stringLiteral(argument) else { break }
                    let allowed = values.map { String($0.dropFirst().dropLast()) }
                    guard !allowed.contains(literal.text) else { break }
                    let hint = FlowSuggestion.closest(to: literal.text, in: allowed).map { " (did you mean '\($0)'?)" } ?? ""
                    report(literal.line, "\(function.qualifiedName): \(parameter.name) '\(literal.text)' is not one of "
                        + "\(allowed.joined(separator: ", "))\(hint)")
                }
            }
        }

        for index in tokens.indices {
            let current = tokens[index]
            let afterDot = isSymbol(index - 1, ".") || isSymbol(index - 1, ":")
            // facts.x, facts["x"]
            if isName(index, "facts"), !afterDot {
                if isSymbol(index + 1, "."), isName(index + 2) {
                    // facts.x = v: facts are read-only (the rule would raise at that line).
                    if isSymbol(index + 3, "=") {
                        report(tokens[index + 2].line, Self.factAssignmentProblem(tokens[index + 2].text, role: role))
                    } else {
                        report(tokens[index + 2].line, factProblem(tokens[index + 2].text))
                    }
                } else if isSymbol(index + 1, "["), token(index + 2)?.kind == .string, isSymbol(index + 3, "]") {
                    if isSymbol(index + 4, "=") {
                        report(tokens[index + 2].line, Self.factAssignmentProblem(tokens[index + 2].text, role: role))
                    } else {
                        report(tokens[index + 2].line, factProblem(tokens[index + 2].text))
                    }
                } else if isSymbol(index + 1, "="), isSymbol(index + 2, "{") {
                    factKeys(inTable: index + 2)
                }
            }
            // x.name == "route", x.name ~= "route" (not a fact called name: facts.name == "x")
            if isName(index, "name"), afterDot, !isName(index - 2, "facts"), let op = token(index + 1), op.kind == .symbol,
               ["==", "~="].contains(op.text) {
                routeName(index + 2)
            }
            // Tabs: ctx.tab == "feed", op.tab ~= "feed", c.tab == "feed".
            if isName(index, "tab"), afterDot, let op = token(index + 1), op.kind == .symbol, ["==", "~="].contains(op.text) {
                tabName(index + 2)
            }
            // ctx.dialog == "id", r.redirect.dialog ~= "id"
            if isName(index, "dialog"), afterDot, let op = token(index + 1), op.kind == .symbol, ["==", "~="].contains(op.text),
               let id = literal(index + 2) {
                report(id.line, dialogProblem(id.text))
            }
            // { name = "route", field = literal }
            if isName(index, "name"), isSymbol(index + 1, "="), literal(index + 2) != nil,
               isSymbol(index - 1, "{") || isSymbol(index - 1, ",") || isSymbol(index - 1, ";") {
                if let problem = routeProblem(tokens[index + 2].text) {
                    report(tokens[index + 2].line, problem)
                } else if isSymbol(index - 1, "{") {
                    for (line, problem) in payloadProblems(route: tokens[index + 2].text, items: tableItems(index - 1).map { tokens[$0] }) {
                        report(line, problem)
                    }
                }
            }
            // The global functions of flows (describe, it, expect, ...) and explore files (invariant).
            if current.kind == .name, !afterDot, role != .rules, !isName(index - 1, "function") {
                surfaceCall(role == .flow ? .flowGlobal : .exploreGlobal, current.text, at: index)
            }
            guard role != .explore, current.kind == .name, !afterDot, isSymbol(index + 1, "."), isName(index + 2) else { continue }
            let member = tokens[index + 2].text
            let line = tokens[index + 2].line
            switch current.text {
            case "router":
                if role == .rules {
                    report(current.line, "rules cannot use router (it is read-only inside a rule); navigate with flow.redirect(kind, route, reason)")
                    continue
                }
                guard FlowTestAPI.routerMembers.contains(member) else {
                    report(line, unknownMember("router", member, FlowTestAPI.routerMembers))
                    continue
                }
                surfaceCall(.router, member, at: index + 2)
            case "app":
                if role == .rules {
                    report(current.line, "app exists only in flow tests; rules read facts and call host functions")
                    continue
                }
                guard FlowTestAPI.appMembers.contains(member) else {
                    report(line, unknownMember("app", member, FlowTestAPI.appMembers))
                    continue
                }
                surfaceCall(.app, member, at: index + 2)
                guard let argument = firstArgument(after: index + 2) else { continue }
                if member == "facts" {
                    factKeys(inTable: argument)
                } else if member == "reset" {
                    // app.reset{ root = "home", tab = "feed" } (a root given as a table is a route table)
                    for item in tableItems(argument) where isSymbol(item + 1, "=")
                        && (isSymbol(item - 1, "{") || isSymbol(item - 1, ",") || isSymbol(item - 1, ";")) {
                        if isName(item, "root") { routeName(item + 2) } else if isName(item, "tab") { tabName(item + 2) }
                    }
                } else if member == "host", let name = literal(argument), !ruleHosts.contains(name.text) {
                    let hint = FlowSuggestion.closest(to: name.text, in: ruleHosts.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
                    report(name.line, "app.host stubs host.\(name.text), which no rule calls\(hint)", severity: .warning)
                }
            case "flow":
                guard FlowTestAPI.flowMembers.contains(member) else {
                    report(line, unknownMember("flow", member, FlowTestAPI.flowMembers))
                    continue
                }
                if member == "style", isSymbol(index + 3, "."), isName(index + 4) {
                    let hook = tokens[index + 4].text
                    if !FlowTestAPI.styleHooks.contains(hook) {
                        report(tokens[index + 4].line, unknownMember("flow.style", hook, FlowTestAPI.styleHooks))
                    } else {
                        surfaceCall(.flowStyle, hook, at: index + 4)
                    }
                }
                surfaceCall(.flow, member, at: index + 2)
                guard let argument = firstArgument(after: index + 2) else { continue }
                // The arguments only where they are read: a call's arguments span its whole body.
                let arguments = ["redirect", "op", "precondition", "deeplink", "guard"].contains(member)
                    ? tokens.callArguments(after: index + 2) : []
                let kindToken = member == "guard" ? nil : arguments.first.flatMap { tokens.stringLiteral($0) }
                let kind = kindToken?.text
                if member == "guard" || member == "precondition", arguments.count > 1 {
                    for (line, problem) in Self.literalReturnProblems("flow.\(member)", rule: arguments[1], tokens: tokens) {
                        report(line, problem)
                    }
                }
                if member == "guard" {
                    routeName(argument)
                } else if member == "dialog_guard", let id = literal(argument), id.text != "*" {
                    report(id.line, dialogProblem(id.text))
                } else if member == "deeplink" {
                    for (line, problem) in linkParameterProblems(arguments, tokens: tokens) { report(line, problem, severity: .warning) }
                } else if let kindToken, let problem = kindProblem(member, kindToken.text, hasMore: arguments.count > 1) {
                    // A kind that is not one: the next argument is not checked as a route.
                    report(kindToken.line, problem)
                } else if member == "redirect", kind == "dialog" {
                    // flow.redirect("dialog", dialog [, reason [, policy]])
                    dialogCall(arguments, dialog: 1, policy: 3)
                    // Held navigations: flow.redirect("dialog", id, reason, { resume = true, policy = ... }).
                    if arguments.count > 3 {
                        for (line, message) in RedirectOptionsCheck.problems(tokens, options: arguments[3], dialog: true) {
                            report(line, message)
                        }
                    }
                } else if member == "op", kind == "showDialog" {
                    // flow.op("showDialog", dialog [, policy])
                    dialogCall(arguments, dialog: 1, policy: 2)
                } else if member == "redirect" || member == "op", let kind, let problem = Self.missingRoute(member, kind, arguments, tokens) {
                    report(tokens[index + 2].line, problem)
                } else if member == "redirect" || member == "op", kind == "selectTab", isSymbol(argument + 1, ",") {
                    // Tabs: flow.redirect("selectTab", tab, reason), flow.op("selectTab", tab).
                    tabName(argument + 2)
                } else if member == "redirect" || member == "op", isSymbol(argument + 1, ",") {
                    routeName(argument + 2)
                    if let kind, let route = literal(argument + 2), let problem = openingProblem(member, kind, route: route.text) {
                        report(route.line, problem)
                    }
                }
                // Held navigations: flow.redirect(kind, route, reason, { resume = true }).
                if member == "redirect", kind != "dialog", arguments.count > 3 {
                    for (line, message) in RedirectOptionsCheck.problems(tokens, options: arguments[3]) { report(line, message) }
                } else if member == "op", arguments.count > 2, let line = RedirectOptionsCheck.misplacedResume(tokens, in: arguments[2]) {
                    report(line, "resume is an option of flow.redirect (a rule's redirect), not of flow.op (a deep link's step)")
                }
            default:
                break
            }
        }
        if role == .flow { problems += matcherProblems(tokens, file: source.name) }
        problems += globalProblems(tokens, role: role, file: source.name).filter { !expectedFailures.contains($0.line ?? 0) }
        return problems
    }

    /// The `host.<name>` functions a file calls.
    static func hostNames(_ tokens: [LuaToken]) -> Set<String> {
        var names: Set<String> = []
        for index in tokens.indices.dropLast(2)
        where tokens[index].kind == .name && tokens[index].text == "host" && tokens[index + 1].text == "." && tokens[index + 2].kind == .name {
            names.insert(tokens[index + 2].text)
        }
        return names
    }

    /// The names a file declares: locals (`local a, b`, `local function f`), parameters
    /// (`function(a, b)`), loop variables (`for k, v in`), globals it assigns (`a = 1`,
    /// `a, b = f()`) or defines (`function name()`), and labels; scopes are not told apart.
    static func declaredNames(_ tokens: [LuaToken]) -> Set<String> {
        var declared: Set<String> = []
        func text(_ index: Int) -> String? { tokens.indices.contains(index) ? tokens[index].text : nil }
        func isName(_ index: Int) -> Bool { tokens.indices.contains(index) && tokens[index].kind == .name }
        /// The names of a list `a, b <const>, c` starting at `start`.
        func nameList(from start: Int) {
            var index = start
            while isName(index), !keywords.contains(tokens[index].text) {
                declared.insert(tokens[index].text)
                index += 1
                if text(index) == "<", isName(index + 1), text(index + 2) == ">" { index += 3 }
                guard text(index) == "," else { break }
                index += 1
            }
        }
        for (index, token) in tokens.enumerated() {
            switch token.text {
            case "local" where token.kind == .name:
                if text(index + 1) == "function", isName(index + 2) { declared.insert(tokens[index + 2].text) } else { nameList(from: index + 1) }
            case "for" where token.kind == .name:
                nameList(from: index + 1)
            case "function" where token.kind == .name:
                var open = index + 1
                if isName(open), text(open - 1) != "." {
                    // function name(...), function t.a.b(...), function t:m(...) (which has self)
                    if text(open + 1) == "(" { declared.insert(tokens[open].text) }
                    while isName(open) || text(open) == "." || text(open) == ":" {
                        if text(open) == ":" { declared.insert("self") }
                        open += 1
                    }
                }
                if text(open) == "(" { nameList(from: open + 1) }
            case "::" where token.kind == .symbol:
                if isName(index + 1) { declared.insert(tokens[index + 1].text) }
            default:
                // a = ..., a, b = ...: a name list at the start of an assignment.
                guard token.kind == .name, text(index - 1) != ".", text(index - 1) != ":", text(index - 1) != "," else { continue }
                var end = index
                while isName(end), text(end + 1) == ",", isName(end + 2) { end += 2 }
                guard text(end + 1) == "=" else { continue }
                for name in stride(from: index, through: end, by: 2) { declared.insert(tokens[name].text) }
            }
        }
        return declared
    }

    private static let keywords: Set<String> = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil",
        "not", "or", "repeat", "return", "then", "true", "until", "while",
    ]
    /// The Lua globals both kinds of script have (the sandbox's).
    static let luaGlobals = Set(FlowLuaSurface.luaStandardGlobals + ["_ENV"])
    /// The globals rules scripts have besides Lua's.
    static let rulesGlobals = Set(FlowLuaSurface.globalNames(of: .rules))

    /// Names read (`retries > 3`) or called and indexed (`name(`, `name.`, `name[`, `name:`)
    /// that are neither Lua's, FlowStack's, nor declared in the file (locals, parameters,
    /// globals it assigns); and luassert's `assert.x`, which Lua's `assert` does not have.
    private func globalProblems(_ tokens: [LuaToken], role: Role, file: String) -> [CheckProblem] {
        let script: FlowLuaScript = switch role {
        case .rules: .rules
        case .flow: .flows
        case .explore: .explore
        }
        let globals = FlowLuaSurface.globalNames(of: script)
        var known = Self.luaGlobals.union(globals)
        // Rules files share one VM: a global one of them defines is known in the others.
        if role == .rules { known.formUnion(rulesDeclarations) }
        var problems: [CheckProblem] = []
        var reported: Set<String> = []
        let declared = Self.declaredNames(tokens)
        var candidates: [String]?  // made once, at the first unknown name
        for (index, token) in tokens.enumerated() where token.kind == .name {
            let previous = index > 0 ? tokens[index - 1] : nil
            if let previous, previous.kind == .symbol, [".", ":"].contains(previous.text) { continue }
            // A label (`goto continue`, `::continue::`) and a table key (`{ name = 1 }`) are not reads.
            if let previous, previous.text == "goto" || previous.text == "::" { continue }
            let next = index + 1 < tokens.count ? tokens[index + 1] : nil
            if let next, next.kind == .symbol, next.text == "=" { continue }
            if let previous, let next, previous.text == "<", next.text == ">" { continue }  // local x <const>
            if token.text == "assert", next?.text == ".", role == .flow {
                problems.append(CheckProblem(
                    .error, file: file, line: token.line,
                    "assert is Lua's assert(value, message), not luassert's table: write expect(actual).to_equal(expected) "
                        + "(matchers: \(FlowTestAPI.matchers.prefix(6).joined(separator: ", ")), ...)"))
                continue
            }
            guard !Self.keywords.contains(token.text), !known.contains(token.text), !declared.contains(token.text),
                  reported.insert(token.text).inserted else { continue }
            if candidates == nil { candidates = known.union(declared).sorted() }
            let hint = FlowSuggestion.closest(to: token.text, in: candidates ?? []).map { " (did you mean '\($0)'?)" } ?? ""
            let kind = switch role {
            case .rules: "rules scripts"
            case .flow: "flow scripts"
            case .explore: "explore files"
            }
            let listed = role == .rules ? globals.sorted() : globals
            problems.append(CheckProblem(
                .error, file: file, line: token.line,
                "undeclared global '\(token.text)'\(hint): \(kind) have \(listed.joined(separator: ", ")) and Lua's standard functions"))
        }
        return problems
    }

    /// `expect(...).matcher` with a matcher that does not exist.
    private func matcherProblems(_ tokens: [LuaToken], file: String) -> [CheckProblem] {
        var problems: [CheckProblem] = []
        for (_, close) in Self.expectCalls(tokens) {
            guard close + 2 < tokens.count, tokens[close + 1].text == ".", tokens[close + 2].kind == .name else { continue }
            var matcher = tokens[close + 2]
            if matcher.text == "never" {
                guard close + 4 < tokens.count, tokens[close + 3].text == ".", tokens[close + 4].kind == .name else { continue }
                matcher = tokens[close + 4]
            }
            let name = matcher.text.hasPrefix("not_to_") ? String(matcher.text.dropFirst(4)) : matcher.text
            guard !FlowTestAPI.matchers.contains(name) else { continue }
            problems.append(CheckProblem(
                .error, file: file, line: matcher.line, unknownMember("expect(...)", matcher.text, FlowTestAPI.matchers)))
        }
        return problems
    }

    /// Every `expect(...)` call: the index of `expect` and of its closing parenthesis (the end of
    /// the tokens when it is not closed).
    private static func expectCalls(_ tokens: [LuaToken]) -> [(Int, Int)] {
        var calls: [(Int, Int)] = []
        for index in tokens.indices where tokens[index].kind == .name && tokens[index].text == "expect" {
            guard index + 1 < tokens.count, tokens[index + 1].text == "(" else { continue }
            calls.append((index, tokens.closing(of: index + 1)))
        }
        return calls
    }

    /// The lines of code inside `expect(...)` calls that end in `.to_fail`: their mistakes are
    /// on purpose.
    private static func expectedFailureLines(_ tokens: [LuaToken]) -> Set<Int> {
        var lines: Set<Int> = []
        for (index, close) in expectCalls(tokens) {
            guard close + 2 < tokens.count, tokens[close + 1].text == ".", tokens[close + 2].text == "to_fail" else { continue }
            for token in tokens[index...close] { lines.insert(token.line) }
        }
        return lines
    }

    /// Payload fields of a `{ name = "route", ... }` table the manifest does not declare, or
    /// literal values of the wrong type.
    private func payloadProblems(route: String, items: [LuaToken]) -> [(Int, String)] {
        guard let manifest, let spec = manifest.routes[route] else { return [] }
        var problems: [(Int, String)] = []
        var position = 0
        while position + 2 < items.count {
            let key = items[position], equals = items[position + 1], value = items[position + 2]
            defer { position += 1 }
            guard key.kind == .name, equals.kind == .symbol, equals.text == "=", key.text != "name",
                  position == 0 || [",", ";"].contains(items[position - 1].text) else { continue }
            guard spec.params[key.text] != nil else {
                let hint = FlowSuggestion.closest(to: key.text, in: spec.params.keys.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
                problems.append((key.line, "route '\(route)' has no payload field '\(key.text)'\(hint)"))
                continue
            }
            let literal: FlowScriptValue?
            switch value.kind {
            case .string: literal = .string(value.text)
            case .number: literal = Int(value.text).map(FlowScriptValue.int) ?? Double(value.text).map(FlowScriptValue.double)
            case .name where value.text == "true" || value.text == "false": literal = .bool(value.text == "true")
            default: literal = nil
            }
            let next = position + 3 < items.count ? items[position + 3].text : ","
            guard let literal, [",", ";", "}"].contains(next) else { continue }
            if let problem = manifest.problem(with: FlowRouteValue(route, [key.text: literal])) {
                problems.append((value.line, problem))
            }
        }
        return problems
    }

    private func unknownMember(_ owner: String, _ member: String, _ known: [String]) -> String {
        let hint = FlowSuggestion.closest(to: member, in: known).map { " (did you mean '\($0)'?)" } ?? ""
        return "\(owner) has no '\(member)'\(hint)"
    }

    private func routeProblem(_ name: String) -> String? {
        guard let manifest, !manifest.routes.isEmpty, manifest.routes[name] == nil else { return nil }
        return manifest.problem(with: FlowRouteValue(name))
    }

    /// Tabs: a tab name the manifest does not declare (unchecked when it declares none).
    private func tabProblem(_ name: String) -> String? {
        guard let manifest, !manifest.tabs.isEmpty else { return nil }
        return manifest.problem(withTab: name)
    }

    private func dialogProblem(_ id: String) -> String? {
        guard let manifest, !manifest.dialogs.isEmpty else { return nil }
        return manifest.problem(withDialog: id)
    }

    /// `facts.x = v` in a script: `facts` is read-only everywhere a script sees it.
    private static func factAssignmentProblem(_ name: String, role: Role) -> String {
        switch role {
        case .rules:
            return "facts is read-only (cannot assign '\(name)'): rules read facts, the app sets them "
                + "(engine.setFacts); keep a value a rule computes in a local"
        case .flow:
            return "facts is read-only (cannot assign '\(name)'): a flow sets facts with app.facts{ \(name) = ... }"
        case .explore:
            return "facts is read-only (cannot assign '\(name)'): an invariant reads s.facts"
        }
    }

    private func factProblem(_ name: String) -> String? {
        guard let manifest, !manifest.facts.isEmpty else { return nil }
        return manifest.problem(withFact: name)
    }
}
