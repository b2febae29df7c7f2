import FlowScript
import FlowStackCore
import Foundation

/// Evaluates the style rules for every declared route, at depth 0 and 1, on the root stack,
/// in a sheet and in a full-screen cover, under every combination of the manifest's boolean
/// facts (up to `maximumCombinedFacts` of them; with more, the defaults, each one flipped and
/// all flipped), and reports the attributes the engine ignored (unknown keys, bad values:
/// warnings) and the style rules that failed (errors), located in the rules files.
@MainActor
struct StyleSweep {
    let engine: FlowRulesEngine<FlowRouteValue>
    let manifest: FlowManifest
    let rules: [FlowRulesSource]

    /// With up to this many boolean facts, every combination is tried (2^n).
    static let maximumCombinedFacts = 8

    /// What the sweep did not try, when the manifest has too many boolean facts.
    var factNote: String? {
        let count = booleanFacts.count
        guard count > Self.maximumCombinedFacts else { return nil }
        return "style rules under every combination of the \(count) boolean facts (more than "
            + "\(Self.maximumCombinedFacts)): tried the defaults, each fact flipped and all flipped"
    }

    private var booleanFacts: [(String, Bool)] {
        manifest.facts.sorted(by: { $0.key < $1.key }).compactMap { name, value in
            if case .bool(let flag) = value { return (name, flag) }
            return nil
        }
    }

    func run() -> [CheckProblem] {
        let known = Set(engine.diagnostics)
        let base = manifest.root ?? manifest.routes.keys.sorted().first.map { FlowRouteValue($0) } ?? FlowRouteValue("root")
        for facts in factVariants() {
            guard (try? engine.resetFacts(facts)) != nil else { continue }
            for name in manifest.routes.keys.sorted() {
                let route = sample(name)
                for (router, stack, depth) in scenarios(route, base: base) {
                    engine.install(into: router)
                    _ = router.resolvedStyle(stackIndex: stack, screenDepth: depth)
                }
            }
        }
        try? engine.resetFacts()
        var problems: [CheckProblem] = []
        for diagnostic in engine.diagnostics where !known.contains(diagnostic) {
            problems.append(problem(for: diagnostic))
        }
        return problems
    }

    /// Every combination of the boolean facts, or (with too many) the defaults, each one
    /// flipped on its own and all flipped.
    private func factVariants() -> [[String: FlowScriptValue]] {
        let facts = booleanFacts
        if facts.count <= Self.maximumCombinedFacts {
            return (0..<(1 << facts.count)).map { mask in
                var variant: [String: FlowScriptValue] = [:]
                for (bit, (name, flag)) in facts.enumerated() where mask & (1 << bit) != 0 { variant[name] = .bool(!flag) }
                return variant
            }
        }
        var variants: [[String: FlowScriptValue]] = [[:]]
        for (name, flag) in facts { variants.append([name: .bool(!flag)]) }
        variants.append(Dictionary(uniqueKeysWithValues: facts.map { ($0.0, FlowScriptValue.bool(!$0.1)) }))
        return variants
    }

    /// A route with a payload of the declared types (`"1"`, `1`, `false`, `{}`).
    private func sample(_ name: String) -> FlowRouteValue {
        var payload: [String: FlowScriptValue] = [:]
        for (field, type) in manifest.routes[name]?.params ?? [:] {
            switch type {
            case "string": payload[field] = .string("1")
            case "integer", "number": payload[field] = .int(1)
            case "boolean": payload[field] = .bool(false)
            default: payload[field] = .table([:])
            }
        }
        return FlowRouteValue(name, payload)
    }

    /// Routers showing `route` at depth 0 and 1 of the root stack, a sheet and a cover.
    private func scenarios(_ route: FlowRouteValue, base: FlowRouteValue) -> [(FlowRouter<FlowRouteValue, FlowDialogValue>, Int, Int)] {
        var result: [(FlowRouter<FlowRouteValue, FlowDialogValue>, Int, Int)] = [
            (FlowRouter(root: route), 0, 0),
            (FlowRouter(root: base, path: [route]), 0, 1),
        ]
        for style in [FlowPresentationStyle.sheet, .fullScreenCover] {
            let top = FlowRouter<FlowRouteValue, FlowDialogValue>(root: base)
            top.present(route, style: style)
            let nested = FlowRouter<FlowRouteValue, FlowDialogValue>(root: base)
            nested.present(base, style: style, path: [route])
            result += [(top, 1, 0), (nested, 1, 1)]
        }
        return result
    }

    /// A diagnostic as a problem, located at the attribute's key in the rules when it has none.
    private func problem(for diagnostic: FlowScriptDiagnostic) -> CheckProblem {
        let severity: CheckProblem.Severity = diagnostic.severity == .error ? .error : .warning
        if diagnostic.file != nil {
            return CheckProblem(severity, file: diagnostic.file, line: diagnostic.line, diagnostic.message)
        }
        let message = diagnostic.message
        if let match = message.firstMatch(of: /style attribute '?([A-Za-z_][A-Za-z0-9_]*)'? ignored/) {
            let value = message.firstMatch(of: /got "?([^"]*)"?$/).map { String($0.output.1) }
            if let (file, line) = locate(key: String(match.output.1), value: value) {
                return CheckProblem(severity, file: file, line: line, message)
            }
        }
        return CheckProblem(severity, file: nil, line: nil, message)
    }

    /// The place a rules file writes `key = value` (the value as the message shows it), or
    /// else the first place it writes `key =` (or `["key"] =`).
    private func locate(key: String, value: String?) -> (String, Int)? {
        var first: (String, Int)?
        for source in rules {
            let tokens = LuaTokenizer.tokens(source.text)
            for index in tokens.indices.dropLast() where tokens[index].text == key && tokens[index].kind != .number {
                let equals = tokens[index + 1].text == "]" && index + 2 < tokens.count ? index + 2 : index + 1
                guard tokens[equals].kind == .symbol, tokens[equals].text == "=" else { continue }
                if first == nil { first = (source.name, tokens[index].line) }
                if let value, equals + 1 < tokens.count, tokens[equals + 1].text == value {
                    return (source.name, tokens[index].line)
                }
            }
        }
        return first
    }
}
