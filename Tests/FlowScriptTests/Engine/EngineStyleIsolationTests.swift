import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// Each style rule runs on its own: one team's broken style rule is reported at its
/// `file:line` and does not remove the styling of the rules registered after it.
@Suite("Engine: style rules are isolated")
@MainActor
struct EngineStyleIsolationTests {
    func engine(_ files: [(String, String)]) throws -> (FlowRulesEngine<FlowRouteValue>, FlowRouter<FlowRouteValue, FlowDialogValue>) {
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: files.map { FlowRulesSource(name: $0.0, text: $0.1) })
        let router = FlowRouter<FlowRouteValue, FlowDialogValue>(root: FlowRouteValue("home"))
        engine.install(into: router)
        return (engine, router)
    }

    @Test("A style rule that errors is reported at its line; the rules after it, in another file, still apply")
    func brokenRuleDoesNotRemoveOthers() throws {
        let (engine, router) = try engine([
            ("rules/10-team-a.lua", """
                flow.style.screen(function(c)
                  local broken = nil
                  return { navigationTitle = broken.title }
                end)
                flow.style.stack(function(c) error({ code = 1 }) end)
                """),
            ("rules/20-team-b.lua", """
                flow.style.screen(function(c) return { tint = "red" } end)
                flow.style.stack(function(c) return { navigationBarHidden = true } end)
                """),
        ])
        let style = try #require(router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(style.screen.tint == .named(.red), "\(style.screen)")
        #expect(style.stack.navigationBarHidden == true, "\(style.stack)")
        let errors = engine.diagnostics.filter { $0.severity == .error }
        #expect(errors.count == 2, "\(engine.diagnostics)")
        let screen = try #require(errors.first { $0.line == 3 })
        #expect(screen.file == "rules/10-team-a.lua")
        #expect(screen.message.hasPrefix("style rule failed: attempt to index"), "\(screen.message)")
        let stack = try #require(errors.first { $0.line == 5 }, "an error without a location is placed at the rule")
        #expect(stack.file == "rules/10-team-a.lua")
        #expect(stack.message.contains("error object is a table value"), "\(stack.message)")
    }

    @Test("A rule that returns a bad value is reported at its registration; the next rule still applies")
    func badReturnIsolated() throws {
        let (engine, router) = try engine([("rules/style.lua", """
            flow.style.screen(function(c) return "red" end)
            flow.style.screen(function(c) return { navigationTitle = "B" } end)
            """)])
        let style = try #require(router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(style.screen.navigationTitle == "B")
        let error = try #require(engine.diagnostics.first { $0.severity == .error })
        #expect(error.file == "rules/style.lua")
        #expect(error.line == 1)
        #expect(error.message.contains("must return a table of attributes or nil"), "\(error.message)")
    }

    @Test("A style rule that runs out of the instruction budget is reported at its file; the rules before and after it still apply")
    func runawayRuleIsolated() throws {
        let (engine, router) = try engine([
            ("rules/10-team-a.lua", """
                flow.style.screen(function(c) return { navigationTitle = "A" } end)
                flow.style.screen(function(c)
                  while true do end
                end)
                flow.style.stack(function(c) local n = 0 while true do n = n + 1 end end)
                """),
            ("rules/20-team-b.lua", """
                flow.style.screen(function(c) return { tint = "red" } end)
                flow.style.screen(function(c) while true do end end)
                flow.style.stack(function(c) return { navigationBarHidden = true } end)
                """),
        ])
        let style = try #require(router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(style.screen.navigationTitle == "A", "\(style.screen)")
        #expect(style.screen.tint == .named(.red), "the rule after two runaway ones still applies: \(style.screen)")
        #expect(style.stack.navigationBarHidden == true, "\(style.stack)")
        let budget = engine.diagnostics.filter { $0.severity == .error && $0.message.contains("instruction budget") }
        #expect(budget.count == 3, "each runaway rule once: \(engine.diagnostics)")
        #expect(Set(budget.compactMap(\.file)) == ["rules/10-team-a.lua", "rules/20-team-b.lua"], "\(budget)")
    }
}
