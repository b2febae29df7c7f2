import FlowLuaTestSupport
import FlowStackCore
import Testing
@testable import FlowLua
@testable import FlowScript

@Suite("The rules prelude, a .lua resource of FlowScript")
@MainActor
struct PreludeFileTests {
    @Test("The rules prelude is read from the module's resource bundle and compiles")
    func rulesPreludeLoads() throws {
        let source = try FlowRulesPrelude.source
        #expect(source.contains("local KINDS = native.kinds"))
        let vm = try LuaVM()
        _ = try vm.load(source: source, chunkName: FlowRulesPrelude.chunkName)
    }

    @Test("An error inside the rules prelude names rules.lua, not a name both preludes share")
    func rulesPreludeErrorNamesItsFile() throws {
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
        let set = try #require(engine.ruleSet)
        // decideDialog indexes the dialog it is given: nil fails inside the prelude.
        let error = scriptError { () throws(FlowScriptError) in _ = try set.vm.call(set.dialogFunction, [.nil]) }
        #expect(error?.file == "@rules.lua")
        #expect(error?.line != nil)
    }

    @Test("The rules prelude hands its loading summary over by name")
    func rulesPreludeSummaryByName() throws {
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [FlowRulesSource(name: "rules/all.lua", text: """
            flow.precondition("push", function() return true end)
            flow.precondition("*", function() return true end)
            flow.guard("checkout", function() return true end)
            flow.dialog_guard("logout", function() return true end)
            flow.style.screen(function() return {} end)
            flow.style.modal(function() return {} end)
            flow.style.modal(function() return {} end)
            """)])
        let set = try #require(engine.ruleSet)
        #expect(set.preconditionKinds == ["push"])
        #expect(set.hasStarPrecondition)
        #expect(set.guardNames == ["checkout"])
        #expect(set.dialogGuardNames == ["logout"])
        #expect(set.styleCounts[.screen] == 1)
        #expect(set.styleCounts[.stack] ?? 0 == 0)
        #expect(set.styleCounts[.modal] == 2)
    }
}
