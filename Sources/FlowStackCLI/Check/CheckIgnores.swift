import FlowStackCore
import Foundation

/// `-- flowstack: ignore <kind>` comments: one silences the findings of that kind on its own
/// line or, alone on its line, on the line below; `--strict` then does not count them.
struct CheckIgnores {
    /// The kinds a comment names, by file and line.
    private var kinds: [String: [Int: Set<String>]] = [:]

    /// The comments of `sources` (file name → text).
    init(_ sources: [String: String]) {
        for (file, text) in sources {
            var lines: [Int: Set<String>] = [:]
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let range = line.range(of: "flowstack: ignore") else { continue }
                let before = line[..<range.lowerBound]
                guard let dashes = before.range(of: "--", options: .backwards),
                      before[dashes.upperBound...].allSatisfy(\.isWhitespace) else { continue }
                let names = line[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\r" })
                    .map(String.init)
                let kinds = Set(names.prefix { CheckProblem.kinds.contains($0) })
                guard !kinds.isEmpty else { continue }
                let alone = before[..<dashes.lowerBound].allSatisfy(\.isWhitespace)
                lines[index + 1, default: []].formUnion(kinds)
                if alone { lines[index + 2, default: []].formUnion(kinds) }
            }
            if !lines.isEmpty { kinds[file] = lines }
        }
    }

    /// The comments that name a kind no finding has, as problems (a misspelt kind silences
    /// nothing): at the comment's line, with "did you mean".
    static func unknownKinds(in sources: [String: String]) -> [CheckProblem] {
        var problems: [CheckProblem] = []
        for (file, text) in sources {
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let range = line.range(of: "-- flowstack: ignore") ?? line.range(of: "--flowstack: ignore") else { continue }
                let word = line[range.upperBound...].split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\r" })
                    .first.map(String.init)
                guard let word else {
                    problems.append(CheckProblem(.error, file: file, line: index + 1,
                        "flowstack: ignore needs the kind of finding it silences: one of \(CheckProblem.kinds.joined(separator: ", "))"))
                    continue
                }
                guard !CheckProblem.kinds.contains(word) else { continue }
                let hint = FlowSuggestion.closest(to: word, in: CheckProblem.kinds).map { " (did you mean '\($0)'?)" } ?? ""
                problems.append(CheckProblem(.error, file: file, line: index + 1,
                    "flowstack: ignore names an unknown kind '\(word)'\(hint); kinds: \(CheckProblem.kinds.joined(separator: ", "))"))
            }
        }
        return problems
    }

    /// Whether a comment silences `problem`.
    func silences(_ problem: CheckProblem) -> Bool {
        guard let file = problem.file, let line = problem.line else { return false }
        return kinds[file]?[line]?.contains(problem.kind) ?? false
    }
}
