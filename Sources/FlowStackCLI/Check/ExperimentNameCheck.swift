import FlowScript
import FlowStackCore
import Foundation

/// Experiment and variant names the scripts spell, against the manifest's `experiments`, read
/// from the source (without running it): `experiments.x` and `experiments["x"]`, a variant
/// compared with one (`experiments.x == "annualFirst"`, either side, `~=` too),
/// `flow.audience("x", ...)`, and the tables flows force variants with
/// (`app.experiments{ x = "v" }`, `app.reset{ experiments = { x = "v" } }`); and the declared
/// experiments no rule reads.
struct ExperimentNameCheck {
    let manifest: FlowManifest

    /// The names and variants one script spells wrong.
    func problems(in source: FlowRulesSource) -> [CheckProblem] {
        let tokens = LuaTokenizer.tokens(source.text)
        var problems: [CheckProblem] = []
        func token(_ index: Int) -> LuaToken? { tokens.indices.contains(index) ? tokens[index] : nil }
        func isSymbol(_ index: Int, _ text: String) -> Bool { token(index).map { $0.kind == .symbol && $0.text == text } ?? false }
        func isName(_ index: Int, _ text: String? = nil) -> Bool {
            guard let token = token(index), token.kind == .name else { return false }
            return text == nil || token.text == text
        }
        func report(_ line: Int, _ message: String?) {
            if let message { problems.append(CheckProblem(.error, file: source.name, line: line, message)) }
        }
        /// `name = "variant"` items of the table opened at `open`.
        func choices(inTable open: Int) {
            for index in tokens.tableItems(openedAt: open)
            where isName(index) && isSymbol(index + 1, "=") && (isSymbol(index - 1, "{") || isSymbol(index - 1, ",")) {
                let name = tokens[index].text
                if let problem = manifest.problem(withExperiment: name) {
                    report(tokens[index].line, problem)
                } else if let variant = token(index + 2), variant.kind == .string {
                    report(variant.line, manifest.problem(withVariant: variant.text, of: name))
                }
            }
        }
        for index in tokens.indices where isName(index, "experiments") && !isSymbol(index - 1, ".") && !isSymbol(index - 1, ":") {
            // experiments = { x = "v" } (app.reset's option).
            if isSymbol(index + 1, "="), isSymbol(index + 2, "{") {
                choices(inTable: index + 2)
                continue
            }
            // app.experiments{ ... } / app.experiments({ ... })
            if isSymbol(index - 1, ".") { continue }
            let nameIndex: Int
            if isSymbol(index + 1, "."), isName(index + 2) {
                nameIndex = index + 2
            } else if isSymbol(index + 1, "["), token(index + 2)?.kind == .string, isSymbol(index + 3, "]") {
                nameIndex = index + 2
            } else {
                continue
            }
            let name = tokens[nameIndex].text
            if let problem = manifest.problem(withExperiment: name) {
                report(tokens[nameIndex].line, problem)
                continue
            }
            let after = isSymbol(index + 1, "[") ? index + 4 : index + 3
            // experiments.x == "v", "v" ~= experiments.x
            if let op = token(after), op.kind == .symbol, ["==", "~="].contains(op.text), let literal = token(after + 1), literal.kind == .string {
                report(literal.line, manifest.problem(withVariant: literal.text, of: name))
            }
            if let op = token(index - 1), op.kind == .symbol, ["==", "~="].contains(op.text), let literal = token(index - 2), literal.kind == .string {
                report(literal.line, manifest.problem(withVariant: literal.text, of: name))
            }
        }
        for index in tokens.indices {
            // app.experiments{ ... }
            if isName(index, "app"), isSymbol(index + 1, "."), isName(index + 2, "experiments") {
                if isSymbol(index + 3, "{") { choices(inTable: index + 3) }
                if isSymbol(index + 3, "("), isSymbol(index + 4, "{") { choices(inTable: index + 4) }
            }
            // flow.audience("x", ...)
            if isName(index, "flow"), isSymbol(index + 1, "."), isName(index + 2, "audience"), isSymbol(index + 3, "("),
               let name = token(index + 4), name.kind == .string {
                report(name.line, manifest.problem(withExperiment: name.text))
            }
        }
        return problems
    }

    /// The declared experiments no rules file reads (`experiments.x`, `experiments["x"]`), each
    /// a warning at its line in the manifest: no rule can act on its variants.
    func unread(rules: [FlowRulesSource], manifestSource: String?) -> [CheckProblem] {
        var read: Set<String> = []
        for source in rules {
            let tokens = LuaTokenizer.tokens(source.text)
            for index in tokens.indices where tokens[index].kind == .name && tokens[index].text == "experiments" {
                guard index + 2 < tokens.count, tokens[index + 1].kind == .symbol else { continue }
                if tokens[index + 1].text == "." || tokens[index + 1].text == "[" { read.insert(tokens[index + 2].text) }
            }
        }
        return manifest.experiments.keys.sorted().filter { !read.contains($0) }.map { name in
            CheckProblem(
                .warning, file: manifest.file, line: manifestSource.flatMap { FlowManifest.line(ofKeys: ["experiments", name], in: $0) },
                "experiment '\(name)' is declared but no rule reads experiments.\(name): its variants change nothing (read it in a rule, or remove it)")
        }
    }
}
