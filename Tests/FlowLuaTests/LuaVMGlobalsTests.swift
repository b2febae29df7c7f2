import FlowLuaTestSupport
import Testing
@testable import FlowLua

@Suite("Locked globals and read-only tables")
@MainActor
struct LuaVMGlobalsTests {
    /// A VM with `helper` and `counter` declared, then locked.
    func lockedVM() throws -> LuaVM {
        let vm = try LuaVM()
        _ = try run(vm, "helper = function() return 1 end\ncounter = 0\ncleared = true\ncleared = nil\n")
        try vm.lockGlobals()
        return vm
    }

    @Test("Reading an undeclared global after the lock names it")
    func undeclaredRead() throws {
        let vm = try lockedVM()
        let error = scriptError(vm, "local x = 1\nreturn isPremuim\n", chunkName: "rules/paywall.lua")
        #expect(error == FlowScriptError(
            kind: .undeclaredGlobal, file: "rules/paywall.lua", line: 2, message: "undeclared global 'isPremuim'"))
    }

    @Test("Writing an undeclared global after the lock names it")
    func undeclaredWrite() throws {
        let vm = try lockedVM()
        let error = scriptError(vm, "newGlobal = 1", chunkName: "rules/a.lua")
        #expect(error?.kind == .undeclaredGlobal)
        #expect(error?.message.contains("undeclared global 'newGlobal'") == true)
        #expect(error?.line == 1)
    }

    @Test("Declared globals stay readable and writable, even after being set to nil later")
    func declared() throws {
        let vm = try lockedVM()
        #expect(try run(vm, "counter = counter + 1 return counter, helper()") == [1, 1])
        #expect(try run(vm, "counter = nil return counter") == [.nil])
        #expect(try run(vm, "counter = 5 return counter") == [5])
        // Declared means present when the lock happens: a global already set to nil is not.
        #expect(scriptError(vm, "return cleared")?.kind == .undeclaredGlobal)
        #expect(try run(vm, "return string.upper('a'), _G.helper ~= nil") == ["A", true])
    }

    @Test("Globals are free before the lock")
    func beforeLock() throws {
        let vm = try LuaVM()
        #expect(try run(vm, "return notYet") == [.nil])
        #expect(try run(vm, "later = 3 return later") == [3])
    }

    @Test("rawset follows the lock; rawget reads freely; the metatable is protected")
    func rawAccess() throws {
        let vm = try lockedVM()
        #expect(scriptError(vm, "rawset(_G, 'sneaky', 1)")?.kind == .undeclaredGlobal)
        #expect(try run(vm, "rawset(_G, 'counter', 9) return counter") == [9])
        #expect(try run(vm, "return rawget(_G, 'missing'), rawget(_G, 'counter')") == [.nil, 9])
        #expect(scriptError(vm, "setmetatable(_G, nil)")?.message.contains("protected metatable") == true)
        #expect(try run(vm, "return getmetatable(_G)") == ["locked globals"])
    }

    @Test("Globals set from Swift after the lock are declared")
    func swiftGlobalsAfterLock() throws {
        let vm = try lockedVM()
        try vm.setGlobal("late", 5)
        try vm.setGlobal("flow.style.background", "#fff")
        #expect(try run(vm, "return late, flow.style.background") == [5, "#fff"])
        #expect(try vm.global("flow.style.background") == "#fff")
        #expect(try vm.global("flow.missing.deeper") == .nil)
    }

    @Test("A read-only table reads like a table")
    func readOnlyReads() throws {
        let vm = try LuaVM()
        try vm.installReadOnlyTable(at: "facts", contents: ["isLoggedIn": true, "name": "ada", "user": ["id": 7]])
        try vm.installReadOnlyTable(at: "list", contents: LuaTable(array: ["a", "b", "c"]))
        let results = try run(vm, """
            local keys = {}
            for k in pairs(facts) do keys[#keys + 1] = k end
            table.sort(keys)
            local items = {}
            for i, v in ipairs(list) do items[i] = v end
            return facts.isLoggedIn, facts.name, facts.user.id, facts.missing, table.concat(keys, ','), #list, table.concat(items)
            """)
        #expect(results == [true, "ada", 7, .nil, "isLoggedIn,name,user", 3, "abc"])
    }

    @Test("Writing to a read-only table fails, rawset included", arguments: [
        ("facts.isPremium = true", "facts is read-only"),
        ("facts.user.id = 8", "facts.user is read-only"),
        ("rawset(facts, 'isPremium', true)", "facts is read-only"),
        ("setmetatable(facts, nil)", "facts is read-only (setmetatable cannot change it)"),
    ])
    func readOnlyWrites(source: String, expected: String) throws {
        let vm = try LuaVM()
        try vm.installReadOnlyTable(at: "facts", contents: ["isPremium": false, "user": ["id": 7]])
        let error = scriptError(vm, source, chunkName: "rules/w.lua")
        #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
        #expect(error?.file == "rules/w.lua")
        #expect(try run(vm, "return facts.isPremium, facts.user.id, next(facts)") == [false, 7, .nil])
    }

    @Test("An assignment's error says what to do instead, when the table says; nested tables do not")
    func readOnlyWriteSaysWhatToDo() throws {
        let vm = try LuaVM()
        try vm.installReadOnlyTable(at: "facts", contents: ["isPremium": false, "user": ["id": 7]], instead: "the app sets them")
        #expect(scriptError(vm, "facts.isPremium = true")?.message == "facts is read-only (cannot assign 'isPremium'): the app sets them")
        #expect(scriptError(vm, "facts.user.id = 8")?.message == "facts.user is read-only (cannot assign 'id')")
    }

    @Test("pairs over a read-only table hands out no table a script could write to")
    func pairsKeepsTheBackingTable() throws {
        let vm = try LuaVM()
        try vm.installReadOnlyTable(at: "facts", contents: ["isPremium": false, "name": "ada"]) { _ in .success(nil) }
        let results = try run(vm, """
            local iterate, state, first = pairs(facts)
            local keys = {}
            for key in iterate, state, first do keys[#keys + 1] = key end
            table.sort(keys)
            return type(iterate), state, table.concat(keys, ","), facts.isPremium
            """)
        #expect(results == ["function", .nil, "isPremium,name", false])
    }

    @Test("A read-only table can be strict about missing keys; pairs tells its handler every key is read")
    func strictKeys() throws {
        let vm = try LuaVM()
        var everyKeyReads = 0
        try vm.installReadOnlyTable(at: "facts", contents: ["isPremium": false]) { key in
            guard let key else {
                everyKeyReads += 1
                return .success(nil)
            }
            return key == "optional" ? .success(nil)
                : .failure(FlowScriptError(kind: .undeclaredGlobal, message: "unknown fact '\(key)' (did you mean 'isPremium'?)"))
        }
        #expect(try run(vm, "local n = 0 for _ in pairs(facts) do n = n + 1 end return n") == [1])
        #expect(everyKeyReads == 1)
        let error = scriptError(vm, "\nreturn facts.isPremuim", chunkName: "rules/s.lua")
        #expect(error == FlowScriptError(
            kind: .undeclaredGlobal, file: "rules/s.lua", line: 2, message: "unknown fact 'isPremuim' (did you mean 'isPremium'?)"))
        #expect(try run(vm, "return facts.optional, facts.isPremium") == [.nil, false])
    }

    @Test("A strict read-only table's handler may serve missing keys, and the table pairs loops over")
    func servedKeys() throws {
        let vm = try LuaVM()
        var reads: [String?] = []
        try vm.installReadOnlyTable(at: "facts", contents: ["plan": "free"]) { key in
            reads.append(key)
            guard let key else { return .success(.table(["plan": "free", "isPremium": true, "user": ["id": 7]])) }
            return .success(key == "isPremium" ? .boolean(true) : key == "user" ? .table(["id": 7]) : nil)
        }
        #expect(try run(vm, "return facts.isPremium, facts.plan, facts.user.id, facts.other") == [true, "free", 7, .nil])
        #expect(reads == ["isPremium", "user", "other"])
        #expect(try run(vm, """
            local keys = {}
            for key, value in pairs(facts) do keys[#keys + 1] = key .. "=" .. tostring(type(value) == "table" and value.id or value) end
            table.sort(keys)
            return table.concat(keys, ",")
            """) == ["isPremium=true,plan=free,user=7"])
        #expect(reads.last == .some(nil))
        // A served table is read-only too.
        #expect(scriptError(vm, "facts.user.id = 8", chunkName: "rules/s.lua")?.kind == .readOnly)
    }

    @Test("Replacing a read-only table's contents is seen by scripts holding it")
    func replaceContents() throws {
        let vm = try LuaVM()
        try vm.installReadOnlyTable(at: "facts", contents: ["a": 1, "b": 2])
        _ = try run(vm, "held = facts")
        try vm.replaceReadOnlyContents(at: "facts", with: ["b": 3, "c": ["d": 4]])
        #expect(try run(vm, "return held.a, held.b, held.c.d") == [.nil, 3, 4])
    }
}
