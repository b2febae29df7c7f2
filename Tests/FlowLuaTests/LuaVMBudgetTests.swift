import CLua
import FlowLuaTestSupport
import Testing
@testable import FlowLua

@Suite("Lua budgets")
@MainActor
struct LuaVMBudgetTests {
    @Test("A runaway loop stops at the instruction budget with its file and line")
    func runawayLoop() throws {
        let vm = try LuaVM(configuration: .init(instructionBudget: 100_000))
        let chunk = try vm.load(source: "local n = 0\nwhile true do\n  n = n + 1\nend\n", chunkName: "rules/loop.lua")
        let error = scriptError { () throws(FlowScriptError) in try vm.call(chunk) }
        #expect(error?.kind == .instructionBudget)
        #expect(error?.file == "rules/loop.lua")
        #expect([2, 3].contains(error?.line ?? 0))
        #expect(error?.message.hasPrefix("instruction budget exceeded (100000 instructions)") == true)
        // The VM stays usable and the next call has a fresh budget.
        #expect(try run(vm, "local s = 0 for i = 1, 1000 do s = s + i end return s") == [500500])
    }

    @Test("pcall in the script cannot swallow the budget error", arguments: [
        "while true do pcall(function() while true do end end) end",
        "while true do pcall(error, 'x') end",
        "while true do coroutine.resume(coroutine.create(function() while true do end end)) end",
        "while true do xpcall(function() while true do end end, function(m) return m end) end",
    ])
    func budgetNotCatchable(source: String) throws {
        let vm = try LuaVM(configuration: .init(instructionBudget: 50_000))
        let error = scriptError(vm, source, chunkName: "rules/evil.lua")
        #expect(error?.kind == .instructionBudget)
        #expect(error?.file == "rules/evil.lua")
    }

    @Test("Work done in C is charged", arguments: [
        "table.move({}, 1, 1e15, 2)",
        "local t = {} for i = 1, 1e4 do t[i] = i end for i = 1, 1e6 do table.insert(t, 1, i) table.remove(t, 1) end",
        "local s = ('x'):rep(1e6) for i = 1, 1e6 do s:find('y', 1, true) end",
        "for i = 1, 1e6 do local s = ('x'):rep(4e6) end",
    ])
    func chargedWork(source: String) throws {
        let vm = try LuaVM(configuration: .init(instructionBudget: 200_000))
        let error = scriptError(vm, source)
        #expect(error?.kind == .instructionBudget)
    }

    @Test("A memory bomb stops at the memory budget and the VM stays usable", arguments: [
        "local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(64) .. i end",
        "local s = 'x' while true do s = s .. s end",
        "return ('x'):rep(1e9)",
    ])
    func memoryBomb(source: String) throws {
        let vm = try LuaVM(configuration: .init(memoryBudget: 4 << 20, instructionBudget: 100_000_000))
        let error = scriptError(vm, source, chunkName: "rules/bomb.lua")
        #expect(error?.kind == .memoryBudget)
        #expect(error?.message.contains("4 MiB") == true)
        #expect(error?.file == "rules/bomb.lua")
        #expect(vm.memoryInUse <= 4 << 20)
        #expect(try run(vm, "local t = {} for i = 1, 100 do t[i] = i end return #t") == [100])
    }

    @Test("pcall, xpcall and coroutines cannot swallow the memory budget error", arguments: [
        "local ok, e = pcall(string.rep, 'x', 2^24, 'yy')\nreturn 'went on'",
        "return pcall(string.rep, 'x', 2^24, 'yy')",
        "local ok = xpcall(string.rep, function(m) return m end, 'x', 2^24, 'yy')\nreturn ok",
        "return coroutine.resume(coroutine.create(function() return ('x'):rep(2^24, 'yy') end))",
        "return pcall(coroutine.wrap(function() return ('x'):rep(2^24, 'yy') end))",
        "for i = 1, 10 do pcall(function() local t = {} for j = 1, 1e9 do t[j] = j end end) end\nreturn 'went on'",
    ])
    func memoryErrorNotCatchable(source: String) throws {
        let vm = try LuaVM(configuration: .init(memoryBudget: 4 << 20, instructionBudget: 100_000_000))
        let error = scriptError(vm, source, chunkName: "rules/evil.lua")
        #expect(error?.kind == .memoryBudget)
        #expect(error?.message.hasPrefix("memory budget exceeded") == true)
        #expect(error?.file == "rules/evil.lua")
        #expect(error?.line == 1)
        // The next call starts afresh.
        #expect(try run(vm, "return pcall(error, 'x')") == [false, "x"])
    }

    @Test("An allocation Lua gets after collecting its garbage does not stop the call")
    func memoryRescuedByCollection() throws {
        let vm = try LuaVM(configuration: .init(memoryBudget: 6 << 20, instructionBudget: 100_000_000))
        let results = try run(vm, """
            local keep = ('k'):rep(2 << 20)
            local piece = ('x'):rep(1 << 20)
            for i = 1, 64 do local garbage = piece .. i end
            return #keep
            """)
        #expect(results == [LuaValue.integer(2 << 20)])
        // The budget refused at least one allocation that a full collection then made room for.
        #expect(clua_ctx_outcome(vm.handle.context).mem_exceeded == 1)
    }

    @Test("A budget too small for the standard library fails creation with a memory error")
    func tinyBudget() {
        #expect(throws: FlowScriptError.self) { try LuaVM(configuration: .init(memoryBudget: 1024)) }
        do {
            _ = try LuaVM(configuration: .init(memoryBudget: 1024))
        } catch {
            #expect(error.kind == .memoryBudget)
        }
    }

    @Test("The memory figures follow the allocator")
    func memoryFigures() throws {
        let vm = try LuaVM()
        let before = vm.memoryInUse
        #expect(before > 0)
        _ = try run(vm, "big = {} for i = 1, 10000 do big[i] = i end")
        #expect(vm.memoryInUse > before)
        #expect(vm.peakMemory >= vm.memoryInUse)
        vm.close()
        #expect(vm.memoryInUse == 0)
    }

    @Test("Budgets can be changed between calls")
    func changeBudgets() throws {
        let vm = try LuaVM()
        vm.instructionBudget = 1_000
        #expect(scriptError(vm, "for i = 1, 1e6 do end")?.kind == .instructionBudget)
        vm.instructionBudget = 10_000_000
        #expect(scriptError(vm, "for i = 1, 1e6 do end") == nil)
        #expect(vm.instructionsUsed >= 1_000_000)
    }
}
