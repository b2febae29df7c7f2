import FlowStackCore
import Foundation
import Testing
@testable import FlowScript
@testable import FlowTesting

/// Rules coverage a rules file cannot forge: lines counted only for the chunk the engine
/// loaded, and names that cannot write lcov records.
@MainActor
@Suite("Flow rules coverage: integrity")
struct FlowCoverageIntegrityTests {
    static let pushA = ["p.lua": """
        it("pushes a", function()
          expect(router.push("a").applied).to_be(true)
        end)
        """]

    @Test("load(src, \"=rules/bank.lua\") does not mark lines of rules/bank.lua as run")
    func forgedChunkNameCountsNothing() async throws {
        let rules = """
            local forged = load("\\n\\nlocal function g()\\n  local a = 1\\n  return a\\nend\\nreturn g()", "=rules/bank.lua")
            flow.guard("a", function(op)
              forged()
              return true
            end)
            local function never()
              local b = 2
              return b
            end
            local ok, message = pcall(load("error('named')", "=rules/bank.lua"))
            assert(message == "rules/bank.lua:1: named", message)
            """
        let plain = try FlowProjectFixture.runner(Self.pushA, rules: rules)
        let covered = FlowTestRunner<FlowRouteValue>(project: plain.project, options: .init(coverage: true))
        let report = await covered.run()
        #expect(report.failedCount == 0 && report.loadErrors.isEmpty, "\(FlowProjectFixture.failures(report)) \(report.loadErrors)")
        let file = try #require(report.coverage?.first)
        let lines = Dictionary(uniqueKeysWithValues: file.lines.map { ($0.line, $0.count) })
        #expect(lines[3] == 1, "the guard ran: \(lines)")
        #expect(lines[7] == 0, "never() never ran; the forged chunk's line 7 did: \(lines)")
        #expect(lines[8] == 0, "\(lines)")
        let functions = Dictionary(uniqueKeysWithValues: file.functions.map { ($0.name, $0.count) })
        #expect(functions["never"] == 0, "\(functions)")
    }

    @Test("a rule named by a string continued over lines cannot write lcov records")
    func namesCannotWriteRecords() async throws {
        let rules = """
            local function named(label, f) return f end
            flow.guard("a", named("x\\
            end_of_record\\
            SF:/etc/passwd\\
            DA:1,1", function(op) return true end))
            """
        let plain = try FlowProjectFixture.runner(Self.pushA, rules: rules)
        let covered = FlowTestRunner<FlowRouteValue>(project: plain.project, options: .init(coverage: true))
        let report = await covered.run()
        let files = try #require(report.coverage)
        #expect(files.first?.functions.allSatisfy { !$0.name.contains("\n") } == true)
        let lcov = FlowCoverage.lcov(files, directory: URL(fileURLWithPath: "/p"))
        let lines = lcov.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0 == "end_of_record" }.count == files.count, "\(lcov)")
        #expect(lines.filter { $0.hasPrefix("SF:") } == ["SF:/p/rules/bank.lua"], "\(lcov)")
        #expect(report.failedCount == 0 && report.loadErrors.isEmpty, "\(FlowProjectFixture.failures(report)) \(report.loadErrors)")
        // The string starts on line 2; its function on line 5. Backslashes stay, breaks are escaped.
        #expect(lcov.contains("FN:5,named(x\\\\x0Aend_of_record\\\\x0ASF:/etc/passwd\\\\x0ADA:1\\x2C1):5\n"), "\(lcov)")
    }

    @Test("every field is one line: control characters, line separators and (in names) commas are escaped")
    func fieldsAreEscaped() {
        let file = FlowCoverage.File(
            name: "rules/x\nend_of_record\u{2028}.lua", lines: [(line: 1, count: 1)],
            functions: [(name: "f,\r\n\u{85}", line: 1, count: 1)])
        let lcov = FlowCoverage.lcov([file], directory: URL(fileURLWithPath: "/p"))
        #expect(lcov.split(separator: "\n").count == 10, "\(lcov)")
        #expect(lcov.contains("SF:/p/rules/x\\x0Aend_of_record\\u{2028}.lua\n"), "\(lcov)")
        #expect(lcov.contains("FN:1,f\\x2C\\x0D\\x0A\\u{0085}:1\n"), "\(lcov)")
        #expect(!lcov.contains("\r") && !lcov.contains("\u{2028}") && !lcov.contains("\u{85}"))
    }
}
