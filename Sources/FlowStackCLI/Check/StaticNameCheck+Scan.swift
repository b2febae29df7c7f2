import FlowScript
import FlowStackCore
import FlowTesting
import Foundation

/// One file's pass of ``StaticNameCheck``: reads its tokens once, in order, and collects the
/// problems of every name, call and argument it can check without running the file.
struct StaticNameScan {
    let check: StaticNameCheck
    let source: FlowRulesSource
    let role: StaticNameCheck.Role
    let tokens: [LuaToken]
    /// The lines of a flow's `expect(...).to_fail()` calls: a mistake there is the test's point.
    let expectedFailures: Set<Int>
    private(set) var problems: [CheckProblem] = []

    init(check: StaticNameCheck, source: FlowRulesSource, role: StaticNameCheck.Role) {
        self.check = check
        self.source = source
        self.role = role
        tokens = LuaTokenizer.tokens(source.text)
        expectedFailures = role == .flow ? StaticNameCheck.expectedFailureLines(tokens) : []
    }

    /// Checks every token.
    mutating func run() {
        for index in tokens.indices {
            let current = tokens[index]
            let afterDot = isSymbol(index - 1, ".") || isSymbol(index - 1, ":")
            if isName(index, "facts"), !afterDot { factAccess(at: index) }
            if afterDot { comparison(at: index) }
            routeTable(at: index)
            // The global functions of flows (describe, it, expect, ...) and explore files (invariant).
            if current.kind == .name, !afterDot, role != .rules, !isName(index - 1, "function") {
                surfaceCall(role == .flow ? .flowGlobal : .exploreGlobal, current.text, at: index)
            }
            guard role != .explore, current.kind == .name, !afterDot, isSymbol(index + 1, "."), isName(index + 2) else { continue }
            switch current.text {
            case "router": routerMember(at: index)
            case "app": appMember(at: index)
            case "flow": flowMember(at: index)
            default: break
            }
        }
    }

    // MARK: What a token starts

    /// `facts.x`, `facts["x"]` (read, or assigned: facts are read-only), `facts = { ... }`.
    private mutating func factAccess(at index: Int) {
        if isSymbol(index + 1, "."), isName(index + 2) {
            factName(at: index + 2, assigned: isSymbol(index + 3, "="))
        } else if isSymbol(index + 1, "["), token(index + 2)?.kind == .string, isSymbol(index + 3, "]") {
            factName(at: index + 2, assigned: isSymbol(index + 4, "="))
        } else if isSymbol(index + 1, "="), isSymbol(index + 2, "{") {
            factKeys(inTable: index + 2)
        }
    }

    /// A fact named at `index`, read or assigned (the rule would raise at that line).
    private mutating func factName(at index: Int, assigned: Bool) {
        let name = tokens[index]
        report(name.line, assigned
            ? StaticNameCheck.factAssignmentProblem(name.text, role: role) : check.factProblem(name.text))
    }

    /// `x.name == "route"` (not a fact called name: `facts.name == "x"`), `ctx.tab == "feed"`,
    /// `ctx.dialog == "id"`, with `==` or `~=`.
    private mutating func comparison(at index: Int) {
        guard let op = token(index + 1), op.kind == .symbol, ["==", "~="].contains(op.text) else { return }
        if isName(index, "name"), !isName(index - 2, "facts") {
            routeName(index + 2)
        } else if isName(index, "tab") {
            tabName(index + 2)
        } else if isName(index, "dialog"), let id = literal(index + 2) {
            report(id.line, check.dialogProblem(id.text))
        }
    }

    /// `{ name = "route", field = literal }`: the route, then its payload's fields.
    private mutating func routeTable(at index: Int) {
        guard isName(index, "name"), isSymbol(index + 1, "="), literal(index + 2) != nil,
              isSymbol(index - 1, "{") || isSymbol(index - 1, ",") || isSymbol(index - 1, ";") else { return }
        if let problem = check.routeProblem(tokens[index + 2].text) {
            report(tokens[index + 2].line, problem)
        } else if isSymbol(index - 1, "{") {
            for (line, problem) in check.payloadProblems(route: tokens[index + 2].text, items: tableItems(index - 1).map { tokens[$0] }) {
                report(line, problem)
            }
        }
    }

    /// `<table>.<member>` of a table only flow tests have (`router`, `app`): `inRules` is the
    /// error in rules; in flows, a member of `members` checked as a surface call. Whether it was.
    private mutating func flowTestMember(
        _ owner: FlowLuaOwner, at index: Int, members: [String], inRules: String
    ) -> Bool {
        let member = tokens[index + 2]
        if role == .rules {
            report(tokens[index].line, inRules)
            return false
        }
        guard members.contains(member.text) else {
            report(member.line, check.unknownMember(tokens[index].text, member.text, members))
            return false
        }
        surfaceCall(owner, member.text, at: index + 2)
        return true
    }

    /// `router.<member>`: unknown in rules, checked as a surface call in flows.
    private mutating func routerMember(at index: Int) {
        _ = flowTestMember(
            .router, at: index, members: FlowTestAPI.routerMembers,
            inRules: "rules cannot use router (it is read-only inside a rule); navigate with flow.redirect(kind, route, reason)")
    }

    /// `app.<member>`: flows only; `app.facts{...}`'s keys, `app.reset{...}`'s root and tab,
    /// `app.host(name)` stubbing a host no rule calls.
    private mutating func appMember(at index: Int) {
        let isChecked = flowTestMember(
            .app, at: index, members: FlowTestAPI.appMembers,
            inRules: "app exists only in flow tests; rules read facts and call host functions")
        let member = tokens[index + 2]
        guard isChecked, let argument = firstArgument(after: index + 2) else { return }
        if member.text == "facts" {
            factKeys(inTable: argument)
        } else if member.text == "reset" {
            // app.reset{ root = "home", tab = "feed" } (a root given as a table is a route table)
            for item in tableItems(argument) where isSymbol(item + 1, "=") && isItemStart(item) {
                if isName(item, "root") { routeName(item + 2) } else if isName(item, "tab") { tabName(item + 2) }
            }
        } else if member.text == "host", let name = literal(argument), !check.ruleHosts.contains(name.text) {
            let hint = FlowSuggestion.closest(to: name.text, in: check.ruleHosts.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
            report(name.line, "app.host stubs host.\(name.text), which no rule calls\(hint)", severity: .warning)
        }
    }

    /// `flow.<member>`: known, its `flow.style.<hook>`, its arity, then its arguments.
    private mutating func flowMember(at index: Int) {
        let member = tokens[index + 2].text
        guard FlowTestAPI.flowMembers.contains(member) else {
            report(tokens[index + 2].line, check.unknownMember("flow", member, FlowTestAPI.flowMembers))
            return
        }
        if member == "style", isSymbol(index + 3, "."), isName(index + 4) {
            let hook = tokens[index + 4].text
            if !FlowTestAPI.styleHooks.contains(hook) {
                report(tokens[index + 4].line, check.unknownMember("flow.style", hook, FlowTestAPI.styleHooks))
            } else {
                surfaceCall(.flowStyle, hook, at: index + 4)
            }
        }
        surfaceCall(.flow, member, at: index + 2)
        guard let argument = firstArgument(after: index + 2) else { return }
        // The arguments only where they are read: a call's arguments span its whole body.
        let arguments = ["redirect", "op", "precondition", "deeplink", "guard"].contains(member)
            ? tokens.callArguments(after: index + 2) : []
        if member == "guard" || member == "precondition", arguments.count > 1 {
            for (line, problem) in StaticNameCheck.literalReturnProblems("flow.\(member)", rule: arguments[1], tokens: tokens) {
                report(line, problem)
            }
        }
        flowArguments(member, at: index + 2, first: argument, arguments)
    }

    /// The arguments of `flow.<member>` (its name at `nameIndex`, its first argument at `first`):
    /// a guard's route, a dialog guard's dialog, a deep link's parameters, a kind and what
    /// follows it (a route, a tab, a dialog and policy), a redirect's options.
    private mutating func flowArguments(_ member: String, at nameIndex: Int, first argument: Int, _ arguments: [Range<Int>]) {
        let kindToken = member == "guard" ? nil : arguments.first.flatMap { tokens.stringLiteral($0) }
        let kind = kindToken?.text
        let isStep = member == "redirect" || member == "op"
        if member == "guard" {
            routeName(argument)
        } else if member == "dialog_guard", let id = literal(argument), id.text != "*" {
            report(id.line, check.dialogProblem(id.text))
        } else if member == "deeplink" {
            for (line, problem) in check.linkParameterProblems(arguments, tokens: tokens) { report(line, problem, severity: .warning) }
        } else if let kindToken, let problem = check.kindProblem(member, kindToken.text, hasMore: arguments.count > 1) {
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
        } else if isStep, let kind, let problem = StaticNameCheck.missingRoute(member, kind, arguments, tokens) {
            report(tokens[nameIndex].line, problem)
        } else if isStep, kind == "selectTab", isSymbol(argument + 1, ",") {
            // Tabs: flow.redirect("selectTab", tab, reason), flow.op("selectTab", tab).
            tabName(argument + 2)
        } else if isStep, isSymbol(argument + 1, ",") {
            routeName(argument + 2)
            if let kind, let route = literal(argument + 2), let problem = check.openingProblem(member, kind, route: route.text) {
                report(route.line, problem)
            }
        }
        // Held navigations: flow.redirect(kind, route, reason, { resume = true }).
        if member == "redirect", kind != "dialog", arguments.count > 3 {
            for (line, message) in RedirectOptionsCheck.problems(tokens, options: arguments[3]) { report(line, message) }
        } else if member == "op", arguments.count > 2, let line = RedirectOptionsCheck.misplacedResume(tokens, in: arguments[2]) {
            report(line, "resume is an option of flow.redirect (a rule's redirect), not of flow.op (a deep link's step)")
        }
    }

    /// The arity of a call to a function of the surface, and its route, dialog and policy
    /// arguments, by the types the surface gives its parameters.
    private mutating func surfaceCall(_ owner: FlowLuaOwner, _ member: String, at nameIndex: Int) {
        guard let function = FlowLuaSurface.function(owner, member), !function.isProperty,
              isSymbol(nameIndex + 1, "(") || isSymbol(nameIndex + 1, "{") || token(nameIndex + 1)?.kind == .string
        else { return }
        let arguments = tokens.callArguments(after: nameIndex)
        if let problem = StaticNameCheck.arityProblem(function, arguments: arguments, tokens: tokens) {
            report(tokens[nameIndex].line, problem.message, severity: problem.severity)
        }
        guard owner == .router || owner == .app else { return }
        for (position, parameter) in function.parameters.enumerated() where arguments.indices.contains(position) {
            typedArgument(arguments[position], parameter, of: function)
        }
    }

    /// One argument of a surface call, by its parameter's type.
    private mutating func typedArgument(_ argument: Range<Int>, _ parameter: FlowLuaParameter, of function: FlowLuaFunction) {
        switch parameter.type {
        case "RouteLike":
            if argument.count == 1 { routeName(argument.lowerBound) }
        case "RouteLike[]":
            for item in tableItems(argument.lowerBound) where isSymbol(item - 1, "{") || isSymbol(item - 1, ",") {
                routeName(item)
            }
        case "Dialog":
            if let id = tokens.dialogID(argument) { report(id.line, check.dialogProblem(id.text)) }
        case "DialogPolicy":
            if let name = tokens.stringLiteral(argument) { report(name.line, DialogPolicyNames.problem(name.text)) }
        case "TabName":
            if argument.count == 1 { tabName(argument.lowerBound) }
        default:
            // A type that lists its values ("inclusive"|"exclusive"): a literal must be one of them.
            let values = parameter.type.split(separator: "|").map(String.init)
            guard values.allSatisfy({ $0.count >= 2 && $0.hasPrefix("\"") && $0.hasSuffix("\"") }),
                  let literal = tokens.stringLiteral(argument) else { return }
            let allowed = values.map { String($0.dropFirst().dropLast()) }
            guard !allowed.contains(literal.text) else { return }
            let hint = FlowSuggestion.closest(to: literal.text, in: allowed).map { " (did you mean '\($0)'?)" } ?? ""
            report(literal.line, "\(function.qualifiedName): \(parameter.name) '\(literal.text)' is not one of "
                + "\(allowed.joined(separator: ", "))\(hint)")
        }
    }

    // MARK: Names

    private mutating func routeName(_ index: Int) {
        guard let token = literal(index) else { return }
        report(token.line, check.routeProblem(token.text))
    }

    /// Tabs: a tab name given as a literal.
    private mutating func tabName(_ index: Int) {
        guard let token = literal(index) else { return }
        report(token.line, check.tabProblem(token.text))
    }

    /// A dialog given at `arguments[dialog]` and a policy at `arguments[policy]`.
    private mutating func dialogCall(_ arguments: [Range<Int>], dialog: Int, policy: Int) {
        if arguments.indices.contains(dialog), let id = tokens.dialogID(arguments[dialog]) {
            report(id.line, check.dialogProblem(id.text))
        }
        if arguments.indices.contains(policy), let name = tokens.stringLiteral(arguments[policy]) {
            report(name.line, DialogPolicyNames.problem(name.text))
        }
    }

    /// The fact names a table constructor's keys give (`app.facts{ ... }`, `facts = { ... }`).
    private mutating func factKeys(inTable open: Int) {
        for item in tableItems(open) where isName(item) && isSymbol(item + 1, "=") && isItemStart(item) {
            report(tokens[item].line, check.factProblem(tokens[item].text))
        }
    }

    private mutating func report(_ line: Int, _ message: String?, severity: CheckProblem.Severity = .error) {
        guard let message, !expectedFailures.contains(line) else { return }
        problems.append(CheckProblem(severity, file: source.name, line: line, message))
    }

    // MARK: Tokens

    private func token(_ index: Int) -> LuaToken? { tokens.indices.contains(index) ? tokens[index] : nil }

    private func isSymbol(_ index: Int, _ text: String) -> Bool {
        token(index).map { $0.kind == .symbol && $0.text == text } ?? false
    }

    private func isName(_ index: Int, _ text: String? = nil) -> Bool {
        guard let token = token(index), token.kind == .name else { return false }
        return text == nil || token.text == text
    }

    /// Whether the token at `index` starts an item of a table constructor (after `{`, `,` or `;`).
    private func isItemStart(_ index: Int) -> Bool {
        isSymbol(index - 1, "{") || isSymbol(index - 1, ",") || isSymbol(index - 1, ";")
    }

    /// The index of the first argument of a call whose function name ends at `index`
    /// (`f(x`, `f "x"`, `f{`).
    private func firstArgument(after index: Int) -> Int? {
        if isSymbol(index + 1, "(") { return index + 2 }
        if token(index + 1)?.kind == .string || isSymbol(index + 1, "{") { return index + 1 }
        return nil
    }

    /// The tokens at depth 1 of the table constructor opened at `open`.
    private func tableItems(_ open: Int) -> [Int] { tokens.tableItems(openedAt: open) }

    /// The string literal at `index` when it is a whole name: not part of a concatenation
    /// (`"step" .. n` builds a name the check cannot know; only literal names are checked).
    private func literal(_ index: Int) -> LuaToken? {
        guard let token = token(index), token.kind == .string, !isSymbol(index - 1, ".."), !isSymbol(index + 1, "..")
        else { return nil }
        return token
    }
}
