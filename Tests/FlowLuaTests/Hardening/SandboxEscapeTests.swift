import FlowLuaTestSupport
import Foundation
import Testing
@testable import FlowLua

/// Ways out of the budgets that the hostile suite found, and the fixes' visible behaviour.
@Suite("Hardening: budget escapes")
@MainActor
struct SandboxEscapeTests {
    @Test("An xpcall handler cannot run unmetered after the budget error (Lua runs it with hooks off)", arguments: [
        "return xpcall(function() while true do end end, function() while true do end end)",
        "xpcall(function() while true do end end, function() while true do end end) return 1",
        "return xpcall(function() error('x') end, function() while true do end end)",
        "while true do xpcall(function() while true do end end, function(m) return m end) end",
    ])
    func xpcallHandlerMetered(source: String) throws {
        let vm = try LuaVM(configuration: .init(instructionBudget: 100_000))
        let started = ContinuousClock.now
        let error = scriptError(vm, source, chunkName: "rules/xp.lua")
        #expect(error?.kind == .instructionBudget, "\(error?.description ?? "no error")")
        #expect(error?.file == "rules/xp.lua")
        #expect(error?.line == 1)
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test("An xpcall handler still runs for ordinary errors, and calls inside may yield")
    func xpcallStillWorks() throws {
        let vm = try LuaVM()
        let results = try run(vm, """
            local ok, doubled = xpcall(function() error(21, 0) end, function(e) return e * 2 end)
            local co = coroutine.wrap(function()
              return xpcall(function() coroutine.yield('paused') return 'resumed' end, print)
            end)
            return ok, doubled, co(), select(2, co())
            """)
        #expect(results == [false, 42, "paused", "resumed"])
    }

    @Test("A budget error swallowed by a tail-called pcall still fails the call, at the line where it ran out", arguments: [
        "return pcall(function()\n  while true do end\nend)",
        "return xpcall(function()\n  while true do end\nend, print)",
        "return coroutine.wrap(function() return pcall(function()\n  while true do end\nend) end)()",
    ])
    func tailCallSwallowFails(source: String) throws {
        let vm = try LuaVM(configuration: .init(instructionBudget: 100_000))
        let error = scriptError(vm, source, chunkName: "rules/tail.lua")
        #expect(error?.kind == .instructionBudget, "\(error?.description ?? "no error")")
        #expect(error?.file == "rules/tail.lua")
        #expect(error?.line == 2)
        #expect(try run(vm, "return 'usable'") == ["usable"])
    }

    @Test("The same, in an asynchronous call")
    func tailCallSwallowFailsAsync() async throws {
        let vm = try LuaVM(configuration: .init(instructionBudget: 100_000))
        let function = try vm.load(source: "return pcall(function()\n  while true do end\nend)", chunkName: "rules/tail.lua")
        let error = await thrownAsync { () async throws(FlowScriptError) in _ = try await vm.callAsync(function) }
        #expect(error?.kind == .instructionBudget)
        #expect(error?.description.hasPrefix("rules/tail.lua:2: instruction budget exceeded") == true)
    }

    @Test("Code loaded without a name is named after the line that loads it")
    func loadNamedAfterCaller() throws {
        let vm = try LuaVM()
        let error = scriptError(vm, "local x = 1\nload('local y = 2\\nerror(\"inside\")')()", chunkName: "rules/loader.lua")
        #expect(error?.description == "rules/loader.lua:2 (load):2: inside")
        #expect(try run(vm, "local f = load('error(\"named\")', '=mine') local ok, e = pcall(f) return e") == ["mine:1: named"])
    }

    @Test("getmetatable('') answers a stand-in: changing it changes no string method")
    func stringMetatableStandIn() throws {
        let vm = try LuaVM()
        let results = try run(vm, """
            getmetatable('').__index = function() error('hijacked') end
            getmetatable('').__metatable = nil
            local ok = pcall(setmetatable, '', {})
            return ('abc'):upper(), getmetatable('').__index ~= nil, ok
            """)
        #expect(results == ["ABC", true, false])
    }

    @Test("A host function's error located in another VM keeps both lines: the caller's first")
    func hostErrorFromAnotherVM() throws {
        let flows = try LuaVM()
        let stub = try flows.load(source: "return function()\n  error('backend down')\nend", chunkName: "flows/stub.lua")
        let function = try #require(try flows.call(stub, []).first?.functionValue)
        let rules = try LuaVM()
        try rules.register("host.check", returning: { _ in try flows.call(function, []) })
        let error = scriptError(rules, "local x = 1\nreturn host.check()", chunkName: "rules/caller.lua")
        #expect(error?.description == "rules/caller.lua:2: flows/stub.lua:2: backend down")
        rules.close()
        flows.close()
    }
}
