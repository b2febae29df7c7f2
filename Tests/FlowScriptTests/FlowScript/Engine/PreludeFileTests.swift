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

    /// The error running the flow prelude with `matchers` as Swift's list throws, or nil.
    private func flowPreludeError(matchers: [String]) throws -> FlowScriptError? {
        let vm = try LuaVM()
        try vm.setGlobal("__flow_native.matchers", .table(LuaTable(array: matchers.map(LuaValue.string))))
        let prelude = try vm.load(source: try FlowTestPrelude.source, chunkName: FlowTestPrelude.chunkName)
        return scriptError { () throws(FlowScriptError) in _ = try vm.call(prelude, []) }
    }
}
