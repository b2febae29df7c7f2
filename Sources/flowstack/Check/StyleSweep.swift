import FlowScript
import FlowStack
import Foundation

/// Evaluates the style rules for every declared route, at depth 0 and 1, on the root stack,
/// in a sheet and in a full-screen cover, under the default facts and with each boolean fact
/// flipped, and reports the attributes the engine ignored (unknown keys, bad values) and the
/// style rules that failed, located in the rules files.
@MainActor
struct StyleSweep {
    let engine: FlowRulesEngine<FlowRouteValue>
    let manifest: FlowManifest
    let rules: [FlowRulesSource]

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

    /// The default facts, then each boolean fact flipped on its own.
    private func factVariants() -> [[String: FlowScriptValue]] {
        var variants: [[String: FlowScriptValue]] = [[:]]
        for (name, value) in manifest.facts.sorted(by: { $0.key < $1.key }) {
            if case .bool(let flag) = value { variants.append([name: .bool(!flag)]) }
        }
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
        if diagnostic.file != nil {
            return CheckProblem(.error, file: diagnostic.file, line: diagnostic.line, diagnostic.message)
        }
        let message = diagnostic.message
        if let match = message.firstMatch(of: /style attribute '?([A-Za-z_][A-Za-z0-9_]*)'? ignored/),
           let (file, line) = locate(key: String(match.output.1)) {
            return CheckProblem(.error, file: file, line: line, message)
        }
        return CheckProblem(.error, file: nil, line: nil, message)
    }

    /// The first place a rules file writes `key =` (or `["key"] =`).
    private func locate(key: String) -> (String, Int)? {
        for source in rules {
            let tokens = LuaTokenizer.tokens(source.text)
            for index in tokens.indices.dropLast() where tokens[index].text == key && tokens[index].kind != .number {
                let next = tokens[index + 1].text == "]" && index + 2 < tokens.count ? tokens[index + 2] : tokens[index + 1]
                if next.kind == .symbol, next.text == "=" { return (source.name, tokens[index].line) }
            }
        }
        return nil
    }
}
