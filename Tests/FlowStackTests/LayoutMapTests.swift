import Foundation
import Testing
import FlowStackTestSupport

/// `docs/layout.md` maps the paths through the code hop by hop, each hop as
/// `` `name` (`file:line`) ``: every such reference must point at a line of that file that
/// names the function (its last component: `push` for `FlowRouter.push`).
struct LayoutMapTests {
    /// Every `` `name` (`file:line` `` of the map, with its line in `layout.md`.
    static func references() throws -> [(name: String, path: String, line: Int, at: Int)] {
        let map = try String(contentsOf: FlowStackBinary.packageRoot.appendingPathComponent("docs/layout.md"), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: "`([^`\\s]+)` \\(`([^`\\s:]+):([0-9]+)")
        var found: [(String, String, Int, Int)] = []
        for (index, line) in map.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = String(line)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                func group(_ number: Int) -> String { String(text[Range(match.range(at: number), in: text)!]) }
                found.append((group(1), group(2), Int(group(3))!, index + 1))
            }
        }
        return found
    }

    @Test("every file:line of the map names its function")
    func mapPointsAtItsFunctions() throws {
        let references = try Self.references()
        #expect(references.count >= 40, "the map lists the five paths")
        for reference in references {
            let url = FlowStackBinary.packageRoot.appendingPathComponent(reference.path)
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                Issue.record("layout.md:\(reference.at): \(reference.path) does not exist")
                continue
            }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let name = String(reference.name.split(separator: ".").last ?? "")
            guard reference.line >= 1, reference.line <= lines.count, lines[reference.line - 1].contains(name) else {
                let near: Int? = lines.indices.first { lines[$0].contains("func \(name)") || lines[$0].contains("function \(name)") }
                let hint = near.map { "; it is at line \($0 + 1)" } ?? ""
                Issue.record("layout.md:\(reference.at): \(reference.path):\(reference.line) does not name \(name)\(hint)")
                continue
            }
        }
    }
}
