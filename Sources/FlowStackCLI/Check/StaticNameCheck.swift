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

    /// The kind of file a check reads.
    enum Role { case rules, flow, explore }

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
        var scan = StaticNameScan(check: self, source: source, role: role)
        scan.run()
        var problems = scan.problems
        if role == .flow { problems += matcherProblems(scan.tokens, file: source.name) }
        problems += globalProblems(scan.tokens, role: role, file: source.name).filter { !scan.expectedFailures.contains($0.line ?? 0) }
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
    static func expectedFailureLines(_ tokens: [LuaToken]) -> Set<Int> {
        var lines: Set<Int> = []
        for (index, close) in expectCalls(tokens) {
            guard close + 2 < tokens.count, tokens[close + 1].text == ".", tokens[close + 2].text == "to_fail" else { continue }
            for token in tokens[index...close] { lines.insert(token.line) }
        }
        return lines
    }

    /// Whether a `{ name = ..., ... }` table is a tab as flows' `router.tabs()` shows it
    /// (`{ name, selected, stack }`), not a route: its top-level keys are those, with `selected`
    /// or `stack` among them.
    private static func isTabView(_ items: [LuaToken]) -> Bool {
        var keys: Set<String> = []
        var depth = 0
        for (position, token) in items.enumerated() {
            if ["{", "(", "["].contains(token.text) { depth += 1 }
            if ["}", ")", "]"].contains(token.text) { depth -= 1 }
            guard depth == 0, token.kind == .name, position + 1 < items.count, items[position + 1].text == "=",
                  position == 0 || [",", ";"].contains(items[position - 1].text) else { continue }
            keys.insert(token.text)
        }
        return !keys.isDisjoint(with: ["selected", "stack"]) && keys.isSubset(of: ["name", "selected", "stack"])
    }

    /// Payload fields of a `{ name = "route", ... }` table the manifest does not declare, or
    /// literal values of the wrong type.
    func payloadProblems(route: String, items: [LuaToken]) -> [(Int, String)] {
        guard let manifest, let spec = manifest.routes[route] else { return [] }
        if manifest.tabNames.contains(route), Self.isTabView(items) { return [] }
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

    func unknownMember(_ owner: String, _ member: String, _ known: [String]) -> String {
        let hint = FlowSuggestion.closest(to: member, in: known).map { " (did you mean '\($0)'?)" } ?? ""
        return "\(owner) has no '\(member)'\(hint)"
    }

    func routeProblem(_ name: String) -> String? {
        guard let manifest, !manifest.routes.isEmpty, manifest.routes[name] == nil else { return nil }
        return manifest.problem(with: FlowRouteValue(name))
    }

    /// Tabs: a tab name the manifest does not declare (unchecked when it declares none).
    func tabProblem(_ name: String) -> String? {
        guard let manifest, !manifest.tabs.isEmpty else { return nil }
        return manifest.problem(withTab: name)
    }

    func dialogProblem(_ id: String) -> String? {
        guard let manifest, !manifest.dialogs.isEmpty else { return nil }
        return manifest.problem(withDialog: id)
    }

    /// `facts.x = v` in a script: `facts` is read-only everywhere a script sees it.
    static func factAssignmentProblem(_ name: String, role: Role) -> String {
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

    func factProblem(_ name: String) -> String? {
        guard let manifest, !manifest.facts.isEmpty else { return nil }
        return manifest.problem(withFact: name)
    }
}
