import Foundation
import Testing
@testable import FlowStackCore
@testable import FlowScript

/// The engine tells each router it is installed in whether every command needs a decision (a
/// `"*"` default precondition is loaded), so the router skips asking `needsDecision`, and the
/// rules' generation, which the router records without asking; both follow reloads and close,
/// and decisions stay the same either way.
@Suite("Engine: the dispatch's decidesEveryCommand flag")
@MainActor
struct EngineDispatchFlagTests {
    static let star = FlowRulesSource(name: "rules/star.lua", text: """
        flow.precondition("*", function(op) if op.kind == "pop" then return false, "no pops" end end)
        """)
    static let guardsOnly = FlowRulesSource(name: "rules/guards.lua", text: """
        flow.guard("locked", function() return false, "locked" end)
        """)

    func flag(_ router: FlowRouter<FlowRouteValue, FlowDialogValue>) -> Bool? {
        router.rulesDispatch?.decidesEveryCommand
    }

    @Test("Set with a \"*\" precondition, cleared by a reload without one and by close; every router follows")
    func followsTheRules() throws {
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [Self.star])
        let first = FlowRouter<FlowRouteValue, FlowDialogValue>(root: route("home"))
        let second = FlowRouter<FlowRouteValue, FlowDialogValue>(root: route("home"))
        engine.install(into: first)
        engine.install(into: second)
        #expect(flag(first) == true && flag(second) == true)
        #expect(first.push(route("a")))
        #expect(first.pop() == false, "the \"*\" rule blocks pops")
        guard case .loaded = engine.reload(sources: [Self.guardsOnly]) else {
            Issue.record("the guards must load")
            return
        }
        #expect(flag(first) == false && flag(second) == false)
        #expect(first.rulesDispatch?.generation == 2 && second.rulesDispatch?.generation == 2)
        #expect(first.pop())
        #expect(first.history.last?.generation == 2, "the history records the generation the dispatch knows")
        #expect(first.push(route("locked")) == false)
        guard case .loaded = engine.reload(sources: [Self.star, Self.guardsOnly]) else {
            Issue.record("both files must load")
            return
        }
        #expect(flag(first) == true)
        #expect(first.push(route("locked")) == false, "guards still run when the flag skips needsDecision")
        #expect(first.push(route("open")))
        engine.close()
        #expect(flag(first) == false)
        #expect(first.pop(), "a closed engine allows everything")
    }

    @Test("A reload that fails keeps the flag of the rules still in force")
    func failedReloadKeepsTheFlag() throws {
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [Self.star])
        let router = FlowRouter<FlowRouteValue, FlowDialogValue>(root: route("home"))
        engine.install(into: router)
        let broken = FlowRulesSource(name: "rules/broken.lua", text: "flow.guard(")
        if case .loaded = engine.reload(sources: [broken]) { Issue.record("a syntax error must not load") }
        #expect(flag(router) == true)
        #expect(router.push(route("a")))
        #expect(router.pop() == false)
    }
}
