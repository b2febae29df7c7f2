import FlowLuaTestSupport
import FlowStackCore
import Testing
@testable import FlowLua
@testable import FlowTesting

@Suite("The flow-test prelude, a .lua resource of FlowTesting")
@MainActor
struct FlowPreludeFileTests {
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

    /// The error running the flow prelude with `matchers` as Swift's list throws, or nil.
    private func flowPreludeError(matchers: [String]) throws -> FlowScriptError? {
        let vm = try LuaVM()
        try vm.setGlobal("__flow_native.matchers", .table(LuaTable(array: matchers.map(LuaValue.string))))
        let prelude = try vm.load(source: try FlowTestPrelude.source, chunkName: FlowTestPrelude.chunkName)
        return scriptError { () throws(FlowScriptError) in _ = try vm.call(prelude, []) }
    }
}
