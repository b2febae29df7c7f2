import FlowScript
import FlowStackCore
import Foundation

/// Fact defaults whose type disagrees with how the rules use the fact, where the source says
/// it: `facts.x` compared with or computed against a number literal (`facts.count > 0`,
/// `facts.count + 1`), or compared with `==`/`~=` to a string or boolean literal. A default of
/// another type makes the comparison raise (`<`, arithmetic) or never hold (`==`). Reported at
/// the fact's line in the manifest, citing the first use.
struct FactUseCheck {
    let manifest: FlowManifest
    /// The manifest's text, to locate each fact's key (nil: reported without a line).
    let manifestSource: String?

    private static let ordering: Set<String> = ["<", ">", "<=", ">="]
    private static let arithmetic: Set<String> = ["+", "-", "*", "/", "//", "%", "^"]
    private static let equality: Set<String> = ["==", "~="]

    /// The type a use implies (`number`, `string`, `boolean`) and how it reads, or nil.
    private static func usedType(_ tokens: [LuaToken], op: Int, literal: Int) -> (type: String, text: String)? {
        guard tokens.indices.contains(op), tokens.indices.contains(literal), tokens[op].kind == .symbol else { return nil }
        let symbol = tokens[op].text
        let value = tokens[literal]
        switch value.kind {
        case .number where ordering.contains(symbol) || arithmetic.contains(symbol) || equality.contains(symbol):
            return ("number", "\(symbol) \(value.text)")
        case .string where equality.contains(symbol):
            return ("string", "\(symbol) \"\(value.text)\"")
        case .name where equality.contains(symbol) && (value.text == "true" || value.text == "false"):
            return ("boolean", "\(symbol) \(value.text)")
        default:
            return nil
        }
    }

    private static func kind(of value: FlowScriptValue) -> String {
        switch value {
        case .int, .double: "number"
        case .string: "string"
        case .bool: "boolean"
        case .array, .table: "table"
        }
    }

    func problems(rules: [FlowRulesSource]) -> [CheckProblem] {
        // The first use of each fact whose type disagrees: fact → (file, line, use, type).
        var found: [String: (file: String, line: Int, use: String, type: String)] = [:]
        for source in rules {
            let tokens = LuaTokenizer.tokens(source.text)
            for index in tokens.indices where tokens[index].kind == .name && tokens[index].text == "facts" {
                guard index + 2 < tokens.count, tokens[index + 1].text == ".", tokens[index + 2].kind == .name,
                      index == 0 || (tokens[index - 1].text != "." && tokens[index - 1].text != ":") else { continue }
                let name = tokens[index + 2].text
                guard found[name] == nil, let value = manifest.facts[name] else { continue }
                // facts.x <op> literal, or literal <op> facts.x
                var use: (type: String, text: String)?
                if let after = Self.usedType(tokens, op: index + 3, literal: index + 4) {
                    use = (after.type, "facts.\(name) \(after.text)")
                } else if index >= 2, let before = Self.usedType(tokens, op: index - 1, literal: index - 2) {
                    use = (before.type, "\(tokens[index - 2].kind == .string ? "\"\(tokens[index - 2].text)\"" : tokens[index - 2].text) \(tokens[index - 1].text) facts.\(name)")
                }
                guard let use, use.type != Self.kind(of: value) else { continue }
                let (type, text) = (use.type, use.text)
                found[name] = (source.name, tokens[index + 2].line, text, type)
            }
        }
        let keyLines = manifestSource.map(Self.factKeyLines) ?? [:]
        return found.keys.sorted().map { name in
            let use = found[name]!
            let value = manifest.facts[name]!
            let suggestion: String
            switch (use.type, value) {
            case ("number", .string(let text)) where Double(text) != nil: suggestion = "write the default as \(text)"
            case ("number", _): suggestion = "make the default a number"
            case ("string", _): suggestion = "make the default a string"
            default: suggestion = "make the default a \(use.type)"
            }
            let comparison = use.use.contains("==") || use.use.contains("~=")
            let effect = comparison ? "which is never equal to a \(Self.kind(of: value))" : "which raises for a \(Self.kind(of: value))"
            return CheckProblem(
                comparison ? .warning : .error, file: manifest.file, line: keyLines[name],
                "fact '\(name)' defaults to the \(Self.kind(of: value)) \(value.luaSource), but \(use.file):\(use.line) uses it as a "
                    + "\(use.type) (\(use.use)), \(effect): \(suggestion)")
        }
    }

    /// The line of each `name =` directly inside the manifest's `facts = { ... }` table.
    private static func factKeyLines(_ source: String) -> [String: Int] {
        let tokens = LuaTokenizer.tokens(source)
        var lines: [String: Int] = [:]
        guard let start = tokens.indices.first(where: {
            tokens[$0].kind == .name && tokens[$0].text == "facts" && $0 + 2 < tokens.count && tokens[$0 + 1].text == "="
                && tokens[$0 + 2].text == "{"
        }) else { return [:] }
        let open = start + 2
        let close = tokens.closing(of: open)
        var depth = 0
        for index in open..<min(close, tokens.count) {
            let token = tokens[index]
            if token.kind == .symbol, ["{", "(", "["].contains(token.text) { depth += 1 }
            if token.kind == .symbol, ["}", ")", "]"].contains(token.text) { depth -= 1 }
            if depth == 1, token.kind == .name, index + 1 < tokens.count, tokens[index + 1].text == "=",
               ["{", ",", ";"].contains(tokens[index - 1].text), lines[token.text] == nil {
                lines[token.text] = token.line
            }
        }
        return lines
    }
}
