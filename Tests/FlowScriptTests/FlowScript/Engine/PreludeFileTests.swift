import FlowStackCore
import Testing
@testable import FlowLua
@testable import FlowScript
@testable import FlowTesting

@Suite("The Lua preludes, .lua resources of FlowScript")
@MainActor
struct PreludeFileTests {
    @Test("The rules prelude is read from the module's resource bundle and compiles")
    func rulesPreludeLoads() throws {
        let source = try FlowRulesPrelude.source
        #expect(source.contains("local KINDS = native.kinds"))
        let vm = try LuaVM()
        _ = try vm.load(source: source, chunkName: FlowRulesPrelude.chunkName)
    }

    @Test("The flow-test prelude is read from the module's resource bundle and compiles")
    func flowPreludeLoads() throws {
        let source = try FlowTestPrelude.source
        #expect(source.contains("function expect(...)"))
        let vm = try LuaVM()
        _ = try vm.load(source: source, chunkName: FlowTestPrelude.chunkName)
    }

    @Test("A matcher Swift lists but the flow prelude does not implement is named at load")
    func unknownMatcherInSwiftList() throws {
        let error = try flowPreludeError(matchers: FlowTestPrelude.matchers + ["to_fly"])
        #expect(error?.message.contains("the flow prelude has no matcher 'to_fly' of Swift's list (FlowTestPrelude.matchers)") == true)
    }

    @Test("A matcher the flow prelude implements but Swift does not list is named at load")
    func matcherMissingFromSwiftList() throws {
        let error = try flowPreludeError(matchers: FlowTestPrelude.matchers.filter { $0 != "to_match_steps" })
        #expect(error?.message.contains("matcher 'to_match_steps' is missing from Swift's list") == true)
    }

    @Test("An error the flow prelude raises names flows.lua")
    func flowPreludeErrorNamesItsFile() throws {
        let error = try flowPreludeError(matchers: FlowTestPrelude.matchers + ["to_fly"])
        #expect(error?.file == "@flows.lua")
        #expect(error?.line != nil)
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

    /// The error running the flow prelude with `matchers` as Swift's list throws, or nil.
    private func flowPreludeError(matchers: [String]) throws -> FlowScriptError? {
        let vm = try LuaVM()
        try vm.setGlobal("__flow_native.matchers", .table(LuaTable(array: matchers.map(LuaValue.string))))
        let prelude = try vm.load(source: try FlowTestPrelude.source, chunkName: FlowTestPrelude.chunkName)
        return scriptError { () throws(FlowScriptError) in _ = try vm.call(prelude, []) }
    }
}
