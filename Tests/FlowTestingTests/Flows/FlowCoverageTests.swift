import FlowScript
import FlowTesting
import FlowStackCore
import Foundation
import Testing

/// Rules coverage: lines and rule functions the flows ran, as lcov.
@MainActor
@Suite("Flow rules coverage")
struct FlowCoverageTests {
    static let rules = """
        local function label(name)
          return "to " .. name
        end
        flow.guard("a", function(op)
          if facts.isPremium then
            return false, "premium users skip a"
          end
          return flow.redirect("push", "b", label("b"))
        end)
        flow.guard("detail", function(op) return facts.isLoggedIn, "login required" end)
        flow.style.screen(function(c)
          local t = {
            navigationTitle = c.screenRoute.name,
          }
          return t
        end)
        """

    @Test("a helper the top level calls to register guards counts as called; the guard it made, not yet")
    func loadTimeHelpers() async throws {
        let runner = try FlowProjectFixture.runner(["h.lua": """
            it("pushes d", function() expect(router.push("d").applied).to_be(true) end)
            """], rules: """
            local function signedIn(name)
              flow.guard(name, function(op)
                if not facts.isLoggedIn then return false, "sign in" end
              end)
            end
            signedIn("c")
            """)
        let covered = FlowTestRunner<FlowRouteValue>(project: runner.project, options: .init(coverage: true))
        let report = await covered.run()
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        let file = try #require(report.coverage?.first)
        let functions = Dictionary(file.functions.map { ($0.line, $0.count) }, uniquingKeysWith: { first, _ in first })
        #expect(functions[1] == 1, "signedIn ran at load: \(file.functions)")
        #expect(functions[2] == 0, "the guard it registered was never asked: \(file.functions)")
        let lines = Dictionary(uniqueKeysWithValues: file.lines.map { ($0.line, $0.count) })
        #expect((lines[2] ?? 0) >= 1, "the helper's statement ran: \(lines)")
        #expect(lines[3] == 0, "the guard's body did not: \(lines)")
    }

    @Test("counts lines and functions; a branch never taken and a rule never called show as 0")
    func counts() async throws {
        let runner = try FlowProjectFixture.runner(["c.lua": """
            it("redirects a", function()
              expect(router.push("a").applied).to_be(false)
              expect(router.style(1, 1).screen.navigationTitle).to_be("b")
            end)
            """], rules: Self.rules)
        let covered = FlowTestRunner<FlowRouteValue>(project: runner.project, options: .init(coverage: true))
        let report = await covered.run()
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        let file = try #require(report.coverage?.first)
        #expect(file.name == "rules/bank.lua")
        let lines = Dictionary(uniqueKeysWithValues: file.lines.map { ($0.line, $0.count) })
        #expect(lines[2] == 1, "label ran once: \(lines)")
        #expect(lines[5] == 1)
        #expect(lines[6] == 0, "the premium branch was never taken")
        #expect(lines[8] == 1)
        #expect(lines[12] != nil && lines[12]! >= 1)
        #expect(lines[13] == nil, "a line inside a table constructor is not a statement")
        #expect(lines[1] == 1, "a function's line counts its calls")
        #expect(lines[9] == nil, "top-level code is not counted")
        let functions = Dictionary(uniqueKeysWithValues: file.functions.map { ($0.name, $0.count) })
        #expect(functions["label"] == 1)
        #expect(functions["guard(a)"] == 1)
        #expect(functions["guard(detail)"] == 0, "no flow pushed detail")
        #expect((functions["style(screen)"] ?? 0) >= 1)
        let lcov = FlowCoverage.lcov(report.coverage ?? [], directory: URL(fileURLWithPath: "/p"))
        #expect(lcov.hasPrefix("TN:\nSF:/p/rules/bank.lua\n"))
        #expect(lcov.contains("FN:10,guard(detail):10\n"))
        #expect(lcov.contains("FNDA:0,guard(detail):10\n"))
        #expect(lcov.contains("DA:6,0\n"))
        #expect(lcov.contains("LF:\(file.lines.count)\nLH:\(file.linesHit)\nend_of_record"))
    }

    @Test("errors keep their lines with coverage on, and nothing is counted with it off")
    func linesKeptAndOffIsFree() async throws {
        let rules = """
            flow.guard("a", function(op)
              local missing = nil
              return missing.field
            end)
            """
        let flows = ["e.lua": """
            it("fails closed at the rule's line", function()
              expect(router.push("a").reason).to_contain("rules/bank.lua:3")
            end)
            """]
        let plain = try FlowProjectFixture.runner(flows, rules: rules)
        let covered = FlowTestRunner<FlowRouteValue>(project: plain.project, options: .init(coverage: true))
        let report = await covered.run()
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        let off = await plain.run()
        #expect(off.failedCount == 0)
        #expect(off.coverage == nil)
        #expect(plain.coverage == nil)
    }

    @Test("a rule that runs out of budget fails the same way with coverage on and off (no extra budget)")
    func sameBudgetWithCoverage() async throws {
        let rules = """
            flow.guard("a", function(op)
              local n = 0
              while true do
                n = n + 1
              end
            end)
            """
        let flows = ["b.lua": """
            it("stops the loop", function()
              local reason = router.push("a").reason
              expect(reason).to_contain("instruction budget exceeded (1000000 instructions)")
              expect(reason).to_contain("rules/bank.lua:")
            end)
            """]
        let plain = try FlowProjectFixture.runner(flows, rules: rules)
        let off = await plain.run()
        #expect(off.failedCount == 0, "\(FlowProjectFixture.failures(off))")
        let covered = FlowTestRunner<FlowRouteValue>(project: plain.project, options: .init(coverage: true))
        let on = await covered.run()
        #expect(on.failedCount == 0, "\(FlowProjectFixture.failures(on))")
        let lines = Dictionary(uniqueKeysWithValues: (on.coverage?.first?.lines ?? []).map { ($0.line, $0.count) })
        #expect((lines[4] ?? 0) > 1000, "the loop body was counted: \(lines)")
    }
}
