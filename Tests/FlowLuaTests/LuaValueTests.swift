import FlowLuaTestSupport
import Testing
@_spi(Benchmarks) @testable import FlowLua

@Suite("Lua values")
@MainActor
struct LuaValueTests {
    @Test("Values survive a round trip through Lua", arguments: [
        LuaValue.nil, true, false, 0, -42, .integer(Int.max), .integer(Int.min), 1.5, -0.25, 1.0, "", "héllo\n\"quoted\"",
        ["a", "b", "c"], ["name": "detail", "id": "42"],
        .table(LuaTable(array: [1, ["x": true]], fields: [.integer(10): "ten", "nested": ["deep": [1, 2, [3]]]])),
    ])
    func roundTrip(value: LuaValue) throws {
        let vm = try LuaVM()
        let identity = try #require(try run(vm, "return function(...) return ... end").first?.functionValue)
        #expect(try vm.call(identity, [value]) == [value])
    }

    @Test("Lua's integer and float subtypes stay distinct")
    func numberSubtypes() throws {
        let vm = try LuaVM()
        #expect(try run(vm, "return 1, 1.0, 2^53, 7 // 2, 7 / 2") == [1, 1.0, .number(9007199254740992), 3, 3.5])
    }

    @Test("Sequences and other keys are split as Lua sees them")
    func tableSplit() throws {
        let vm = try LuaVM()
        let value = try run(vm, "return { 'a', 'b', nil, 'd', x = 1, [10] = 'ten', [-1] = 'neg' }")
        #expect(value == [.table(LuaTable(array: ["a", "b"], fields: [4: "d", "x": 1, 10: "ten", -1: "neg"]))])
    }

    @Test("Values Swift cannot hold are refused with a clear error", arguments: [
        ("local t = {} t.self = t return t", "contains itself"),
        ("return { [true] = 1 }", "a boolean key"),
        ("return { [1.5] = 1 }", "a non-integer number key"),
        ("return coroutine.create(function() end)", "thread value"),
    ])
    func unsupported(source: String, expected: String) throws {
        let vm = try LuaVM()
        let error = scriptError(vm, source)
        #expect(error?.kind == .typeError)
        #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
        #expect(try run(vm, "return 1") == [1])
    }

    @Test("Shared tables that are not cycles convert")
    func sharedTables() throws {
        let vm = try LuaVM()
        #expect(try run(vm, "local s = { 1 } return { a = s, b = s }") == [["a": [1], "b": [1]]])
    }

    @Test("Function values become references that can be called again")
    func functionReferences() throws {
        let vm = try LuaVM()
        let function = try #require(try run(vm, "local n = 0 return function() n = n + 1 return n end").first?.functionValue)
        #expect(try vm.call(function, []) == [1])
        #expect(try vm.call(function, []) == [2])
        #expect(function.description.hasPrefix("function: test.lua:1"))
        let other = try LuaVM()
        #expect(scriptError { () throws(FlowScriptError) in _ = try other.call(function, []) }?.kind == .typeError)
    }

    @Test("Dropped function references free their registry slots")
    func referenceRelease() throws {
        let vm = try LuaVM()
        let chunk = try vm.load(source: "return function() end", chunkName: "f.lua")
        for _ in 0..<10 { _ = try vm.call(chunk, []) }
        let settled = vm.memoryInUse
        for _ in 0..<2_000 { _ = try vm.call(chunk, []) }
        // Slots are reused: the registry does not grow with the number of references ever made.
        _ = try run(vm, "return 1")
        #expect(vm.memoryInUse < settled + 64 * 1024)
    }

    @Test("Deep equality follows Lua's rules")
    func deepEquality() {
        #expect(LuaValue.integer(1).isDeepEqual(to: .number(1.0)))
        #expect(!LuaValue.integer(1).isDeepEqual(to: .number(1.5)))
        #expect(!LuaValue.integer(1).isDeepEqual(to: "1"))
        #expect(LuaValue.integer(1) != .number(1.0))
        let split = LuaValue.table(LuaTable(array: [], fields: [1: "a", 2: "b", "k": ["x": 1]]))
        #expect(split.isDeepEqual(to: ["a", "b"]) == false)
        #expect(split.isDeepEqual(to: .table(LuaTable(array: ["a", "b"], fields: ["k": ["x": 1.0]]))))
        #expect(!LuaValue.table(["a": 1]).isDeepEqual(to: ["a": 1, "b": 2]))
        #expect(LuaValue.number(.nan).isDeepEqual(to: .number(.nan)) == false)
    }

    @Test("The deepEqual Lua function compares tables deeply")
    func deepEqualFunction() throws {
        let vm = try LuaVM()
        try vm.installNativeFunction(.deepEqual, at: "deepEqual")
        let results = try run(vm, """
            local shared = {}
            return deepEqual({ name = 'detail', id = '42' }, { id = '42', name = 'detail' }),
                   deepEqual({ 1, { 2, 3 } }, { 1, { 2, 3 } }),
                   deepEqual({ 1, { 2, 3 } }, { 1, { 2, 4 } }),
                   deepEqual({ a = 1 }, { a = 1, b = 2 }),
                   deepEqual(1, 1.0), deepEqual('a', 'a'), deepEqual(shared, shared), deepEqual({}, nil)
            """)
        #expect(results == [true, true, false, false, true, true, true, false])
    }

    @Test("Values print as Lua source")
    func description() {
        #expect(LuaValue.table(["name": "detail", "id": "42"]).description == "{ id = \"42\", name = \"detail\" }")
        #expect(LuaValue.table([1, "two", 3.5, true, .nil]).description == "{ 1, \"two\", 3.5, true, nil }")
        #expect(LuaValue.table(LuaTable(fields: [.integer(10): "x", "two words": 1, "end": 2])).description
            == "{ [10] = \"x\", [\"end\"] = 2, [\"two words\"] = 1 }")
        #expect(LuaValue.string("a\"b\n").description == "\"a\\\"b\\n\"")
        #expect(LuaValue.table([:]).description == "{}")
    }

    @Test("Table subscripts keep the array part normal")
    func tableSubscripts() {
        var table = LuaTable()
        table[key: 2] = "b"
        #expect(table.array.isEmpty)
        table[key: 1] = "a"
        #expect(table.array == ["a", "b"])
        table[key: 1] = .nil
        #expect(table.array.isEmpty)
        #expect(table.fields == [2: "b"])
        table["name"] = "x"
        #expect(table["name"] == "x")
        table["name"] = .nil
        #expect(table.fields[.string("name")] == nil)
    }
}

@Suite("Lua benchmarks entry point")
@MainActor
struct LuaVMBenchmarksTests {
    @Test("The benchmark runs its three calls and reports figures")
    func runs() throws {
        let figures = try LuaVMBenchmarks.run(iterations: 200)
        // The guard benchmark throws unless every call allowed; the figures are per call and
        // finite (a division by no iterations is not); the memory is a Lua state's, not a count gone wrong.
        #expect([figures.emptyCall, figures.guardCall, figures.hostFunctionCall].allSatisfy { $0.isFinite && $0 > 0 }, "\(figures)")
        #expect((4 << 10)..<(64 << 20) ~= figures.memoryInUse, "\(figures.memoryInUse) bytes")
    }
}
