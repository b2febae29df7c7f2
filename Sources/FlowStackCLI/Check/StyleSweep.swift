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
        let found = engine.diagnostics.filter { !known.contains($0) }
        // The rules files are read once for every attribute to locate, not once per attribute.
        let places = Places(keys: Set(found.compactMap { Self.attribute(in: $0)?.key }), rules: rules)
        return found.map { problem(for: $0, places: places) }
    }

    /// The attribute a warning without a location names, and the value it shows.
    private static func attribute(in diagnostic: FlowScriptDiagnostic) -> (key: String, value: String?)? {
        guard diagnostic.file == nil,
              let match = diagnostic.message.firstMatch(of: /style attribute '?([A-Za-z_][A-Za-z0-9_]*)'? ignored/) else { return nil }
        let value = diagnostic.message.firstMatch(of: /got "?([^"]*)"?$/).map { String($0.output.1) }
        return (String(match.output.1), value)
    }

    /// Where the rules files write `key = value` (or `["key"] = value`), for a set of keys: each
    /// place with the value's first token, in file order.
    private struct Places {
        var byKey: [String: [(file: String, line: Int, value: String?)]] = [:]

        init(keys: Set<String>, rules: [FlowRulesSource]) {
            guard !keys.isEmpty else { return }
            for source in rules {
                let tokens = LuaTokenizer.tokens(source.text)
                for index in tokens.indices.dropLast() where tokens[index].kind != .number && keys.contains(tokens[index].text) {
                    let equals = tokens[index + 1].text == "]" && index + 2 < tokens.count ? index + 2 : index + 1
                    guard tokens[equals].kind == .symbol, tokens[equals].text == "=" else { continue }
                    let value = equals + 1 < tokens.count ? tokens[equals + 1].text : nil
                    byKey[tokens[index].text, default: []].append((source.name, tokens[index].line, value))
                }
            }
        }

        /// The place that writes `key = value` (the value as the message shows it), or else the
        /// first place that writes `key =`.
        func locate(key: String, value: String?) -> (String, Int)? {
            guard let places = byKey[key], let first = places.first else { return nil }
            if let value, let exact = places.first(where: { $0.value == value }) { return (exact.file, exact.line) }
            return (first.file, first.line)
        }
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
    private func problem(for diagnostic: FlowScriptDiagnostic, places: Places) -> CheckProblem {
        let severity: CheckProblem.Severity = diagnostic.severity == .error ? .error : .warning
        if diagnostic.file != nil {
            return CheckProblem(severity, file: diagnostic.file, line: diagnostic.line, diagnostic.message)
        }
        if let (key, value) = Self.attribute(in: diagnostic), let (file, line) = places.locate(key: key, value: value) {
            return CheckProblem(severity, file: file, line: line, diagnostic.message)
        }
        return CheckProblem(severity, file: nil, line: nil, diagnostic.message)
    }
}
