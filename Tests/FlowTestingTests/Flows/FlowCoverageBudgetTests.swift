@testable import FlowLua
@testable import FlowScript
import Testing

/// Coverage is counted by the VM's line and call hook, outside the instruction budget.
@MainActor
@Suite("Coverage hook and the instruction budget")
struct FlowCoverageBudgetTests {
    static let source = """
        local function body(n)
          local total = 0
          for i = 1, n do
            total = total + i
          end
          return total
        end
        return body
        """

    /// Runs `body(n)` in a VM with a 500-instruction budget: its result, or the budget error's text.
    static func outcome(_ n: Int, counts: LuaCoverageCounts?) throws -> String {
        let vm = try LuaVM(configuration: .init(instructionBudget: 500))
        defer { vm.close() }
        guard case .function(let body)? = try vm.run(source: source, chunkName: "rules/loop.lua").first else {
            return "no function"
        }
        vm.coverage = counts
        do {
            guard case .integer(let total)? = try vm.call(body, [.integer(n)]).first else { return "no total" }
            return "\(total)"
        } catch {
            #expect(error.kind == .instructionBudget, "\(error)")
            return error.description
        }
    }

    @Test("a loop stops at the same iteration with coverage on and off")
    func sameBudgetPoint() throws {
        var stopped = 0
        for n in stride(from: 0, through: 400, by: 1) {
            let off = try Self.outcome(n, counts: nil)
            let counts = LuaCoverageCounts()
            _ = counts.register(chunkName: "rules/loop.lua", lineCount: 8)
            let on = try Self.outcome(n, counts: counts)
            #expect(on == off, "n = \(n)")
            if off.contains("instruction budget exceeded") { stopped += 1 }
        }
        #expect(stopped > 0 && stopped < 401, "the range crosses the budget: \(stopped) of 401 stopped")
    }

    @Test("lines and function calls are counted only with coverage on")
    func countsLinesAndCalls() throws {
        let counts = LuaCoverageCounts()
        let chunk = counts.register(chunkName: "rules/loop.lua", lineCount: 8)
        #expect(try Self.outcome(5, counts: counts) == "15")
        #expect(counts.functionHits(chunk, line: 1) == 1)
        #expect(counts.lineHits(chunk, line: 2) == 1)
        #expect(counts.lineHits(chunk, line: 4) == 5, "the loop body ran five times")
        #expect(counts.lineHits(chunk, line: 6) == 1)
        #expect(counts.lineHits(chunk, line: 8) == 0, "the chunk ran before coverage was on")
        let idle = LuaCoverageCounts()
        let idleChunk = idle.register(chunkName: "rules/other.lua", lineCount: 8)
        #expect(try Self.outcome(5, counts: idle) == "15")
        #expect((1...8).allSatisfy { idle.lineHits(idleChunk, line: $0) == 0 }, "another chunk's lines are not counted")
    }
}
