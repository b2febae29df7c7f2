import FlowLuaTestSupport
import Foundation
import Testing
@testable import FlowLua

/// Table functions over proxies whose metamethods are C functions used to loop in C for hours
/// (no VM instruction ran, so the hook never fired); they are now charged per element.
@Suite("Hardening: table functions over hostile proxies")
@MainActor
struct TableLibraryHardeningTests {
    /// A proxy that claims 2^40 elements, reads with a C function and ignores writes (rawlen
    /// and rawequal as metamethods: cheap C calls that run no VM instruction).
    nonisolated static let proxy = "local t = setmetatable({}, { __len = function() return 1 << 40 end, __index = rawlen, __newindex = rawequal })\n"

    @Test("A loop in a table function stops at the instruction budget", arguments: [
        "table.insert(t, 1, 'x')",
        "table.remove(t, 1)",
        "table.concat(t)",
        "table.sort(setmetatable({}, { __len = function() return (1 << 31) - 2 end, __index = rawlen, __newindex = rawequal }))",
        "table.sort(setmetatable({}, { __len = function() return 1e6 end, __index = rawlen, __newindex = rawequal }))",
        "table.unpack(setmetatable({}, { __len = function() return 900000 end, __index = rawlen }))",
        "table.move(t, 1, 1 << 40, 2)",
    ])
    func proxyLoopStops(statement: String) throws {
        let vm = try LuaVM()
        let started = ContinuousClock.now
        let error = scriptError(vm, Self.proxy + statement, chunkName: "rules/proxy.lua")
        // The budget ends it (or memory first, for a copy of 2^31 elements).
        #expect(error?.kind == .instructionBudget || error?.kind == .memoryBudget, "\(error?.description ?? "no error")")
        #expect(error?.file == "rules/proxy.lua")
        #expect(error?.line == 2)
        #expect(ContinuousClock.now - started < .seconds(1))
    }

    @Test("__len is called once, so it cannot answer small first and huge later")
    func lengthReadOnce() throws {
        let vm = try LuaVM()
        let results = try run(vm, """
            local calls = 0
            local back = {}
            local t = setmetatable({}, { __index = back, __newindex = back,
              __len = function() calls = calls + 1; return calls == 1 and 0 or (1 << 40) end })
            table.insert(t, 'a')
            local after_insert = calls
            local ok, message = pcall(function() table.sort(t) end)
            return after_insert, back[1], calls, ok, message
            """)
        #expect(results == [1, "a", 2, false, "test.lua:7: bad argument #1 to 'sort' (array too big)"])
    }

    @Test("Sorting a proxy sorts the table behind it")
    func sortProxy() throws {
        let vm = try LuaVM()
        let results = try run(vm, """
            local back = { 'pear', 'apple', 'fig' }
            local t = setmetatable({}, { __index = back, __newindex = back, __len = function() return #back end })
            table.sort(t, function(a, b) return #a < #b end)
            return table.concat(back, ',')
            """)
        #expect(results == ["fig,pear,apple"])
    }
}
