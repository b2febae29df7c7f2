import FlowLuaTestSupport
import Foundation
import Testing
@testable import FlowLua

/// Caps on what string functions may build, and the charge for building it.
@Suite("Hardening: string and result sizes")
@MainActor
struct StringCapTests {
    @Test("A result larger than the memory budget fails on memory with its size and line", arguments: [
        "return ('x'):rep(1e9)",
        "return ('x'):rep(1e6, ('y'):rep(100))",
        "local t = {} for i = 1, 400 do t[i] = ('x'):rep(1e5) end return table.concat(t, ('-'):rep(1e5))",
        "local s = ('x'):rep(3e6) return s .. s .. s .. s .. s .. s",
        "return string.format(('%99d'):rep(1000), table.unpack((function() local t = {} for i = 1, 1000 do t[i] = i end return t end)())):rep(100)",
        "local s = ('ab'):rep(2e6) return (s:gsub('a', ('z'):rep(20)))",
    ])
    func resultTooLarge(source: String) throws {
        let vm = try LuaVM(configuration: .init(memoryBudget: 16 << 20, instructionBudget: 50_000_000))
        let error = scriptError(vm, "local _ = 0\n" + source, chunkName: "rules/big.lua")
        #expect(error?.kind == .memoryBudget, "\(error?.description ?? "no error")")
        #expect(error?.message.contains("memory budget exceeded: the VM needed more than its 16 MiB budget") == true)
        #expect(error?.message.contains("was refused") == true)
        #expect(error?.file == "rules/big.lua")
        #expect(error?.line == 2)
        #expect(try run(vm, "return #('x'):rep(10)") == [10])
    }

    @Test("string.format refuses widths and precisions over 99 (Lua's own cap)", arguments: ["%100d", "%.100f", "%1000s", "%0100d"])
    func formatWidthCapped(format: String) throws {
        let vm = try LuaVM()
        let error = scriptError(vm, "return string.format('\(format)', 1)", chunkName: "rules/fmt.lua")
        #expect(error?.message.contains("invalid conversion") == true, "\(error?.description ?? "no error")")
        #expect(error?.file == "rules/fmt.lua")
        #expect(try run(vm, "return #string.format('%99d', 1)") == [99])
    }

    @Test("Repeating nothing any number of times returns at once")
    func repeatNothing() throws {
        let vm = try LuaVM()
        #expect(try run(vm, "return string.rep('', 1 << 60), string.rep('', 1e15, '')") == ["", ""])
        #expect(vm.instructionsUsed < 1_000)
    }

    @Test("Building large values is charged: copying in a loop stops at the instruction budget", arguments: [
        "local s = ('x'):rep(1e6) while true do local y = s .. 'x' end",
        "local s = ('x'):rep(1e6) while true do local y = s:upper() end",
        "local s = ('x'):rep(1e6) while true do local y = s:sub(2) end",
        "local s = ('x'):rep(1e6) while true do local y = table.concat({ s, s }) end",
        "local s = ('x'):rep(1e6) while true do local y = string.format('%s%s', s, s) end",
        "local s = ('x'):rep(1e6) while true do local y = s:reverse() end",
        "local s = ('1'):rep(1e6) while true do local y = tonumber(s) end",
        "local s = ('é'):rep(5e5) while true do local y = utf8.len(s) end",
    ])
    func copyLoopsCharged(source: String) throws {
        let vm = try LuaVM()
        let started = ContinuousClock.now
        let error = scriptError(vm, source)
        #expect(error?.kind == .instructionBudget, "\(error?.description ?? "no error")")
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test("print emits at most 64 KiB per call, then says the rest was dropped")
    func printCapped() throws {
        let vm = try LuaVM()
        var lines: [String] = []
        vm.printSink = { lines.append($0) }
        _ = try run(vm, "local s = ('x'):rep(3000) for i = 1, 100 do print(s) end")
        let total = lines.reduce(0) { $0 + $1.utf8.count }
        #expect(lines.count == 22)
        #expect(total < 65_536 + 200)
        #expect(lines.last?.hasSuffix("[print output of this call passed 64 KiB: the rest is dropped]") == true)
        // The next call prints again.
        _ = try run(vm, "print('again')")
        #expect(lines.last == "again")
    }
}
