import FlowLuaTestSupport
import Testing
@testable import FlowLua

@Suite("Lua sandbox")
@MainActor
struct LuaVMSandboxTests {
    @Test("Removed globals and library functions are absent", arguments: [
        "io", "debug", "package", "require", "dofile", "loadfile", "os.execute", "os.getenv", "os.exit",
        "os.remove", "os.rename", "os.tmpname", "os.setlocale", "string.dump", "module", "loadstring",
    ])
    func removed(name: String) throws {
        let vm = try LuaVM()
        let results = try run(vm, "local ok, v = pcall(load('return ' .. ...)) return type(v)".replacingOccurrences(of: "...", with: "'\(name)'"))
        #expect(results == ["nil"])
    }

    @Test("Allowed globals and libraries are present", arguments: [
        "assert", "error", "getmetatable", "ipairs", "next", "pairs", "pcall", "print", "rawequal", "rawget",
        "rawlen", "rawset", "select", "setmetatable", "tonumber", "tostring", "type", "xpcall", "load",
        "collectgarbage", "string.format", "string.rep", "table.insert", "table.sort", "math.floor", "utf8.char",
        "coroutine.wrap", "os.time", "os.clock", "os.date",
    ])
    func present(name: String) throws {
        let vm = try LuaVM()
        #expect(try run(vm, "return type(\(name))") == ["function"])
    }

    @Test("The os table holds only time, clock and date")
    func osTable() throws {
        let vm = try LuaVM()
        let results = try run(vm, "local names = {} for k in pairs(os) do names[#names + 1] = k end table.sort(names) return table.concat(names, ',')")
        #expect(results == ["clock,date,time"])
    }

    @Test("Strings' methods cannot reach string.dump")
    func stringMethodsSandboxed() throws {
        let vm = try LuaVM()
        #expect(try run(vm, "return ('x').dump, getmetatable('').__index == string, ('abc'):upper()") == [.nil, true, "ABC"])
    }

    @Test("load refuses binary chunks, whatever the mode")
    func binaryLoadRefused() throws {
        let vm = try LuaVM()
        let results = try run(vm, """
            local bytes = "\\27Lua\\84\\0\\25\\147\\13\\10\\26\\10\\4\\8\\8\\120\\86\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\40\\119\\64\\1"
            local f1, e1 = load(bytes)
            local f2, e2 = load(bytes, "bin", "b")
            local f3, e3 = load(bytes, "bin", "bt")
            return f1, e1, f2, e2, f3, e3
            """)
        #expect(results.count == 6)
        for pair in stride(from: 0, to: 6, by: 2) {
            #expect(results[pair] == .nil)
            #expect(results[pair + 1].stringValue?.contains("attempt to load a binary chunk") == true)
        }
        let error = scriptError(vm, "assert(load('\\27Lua'))", chunkName: "rules/bin.lua")
        #expect(error?.message.contains("binary chunk") == true)
        #expect(error?.file == "rules/bin.lua")
        #expect(error?.line == 1)
    }

    @Test("load still compiles text chunks with the global table as environment")
    func textLoad() throws {
        let vm = try LuaVM()
        #expect(try run(vm, "shared = 41 return load('return shared + 1')()") == [42])
        #expect(try run(vm, "return load('return x', 'c', 't', { x = 7 })()") == [7])
    }

    @Test("collectgarbage allows only count")
    func collectGarbage() throws {
        let vm = try LuaVM()
        let count = try run(vm, "return collectgarbage('count')")
        #expect((count.first?.doubleValue ?? 0) > 0)
        for option in ["", "'collect'", "'stop'", "'step'", "'incremental'"] {
            let error = scriptError(vm, "collectgarbage(\(option))", chunkName: "rules/gc.lua")
            #expect(error?.kind == .sandbox)
            #expect(error?.file == "rules/gc.lua")
            #expect(error?.line == 1)
            #expect(error?.message.contains("only \"count\"") == true)
        }
    }

    @Test("setmetatable refuses __gc metamethods")
    func noFinalizers() throws {
        let vm = try LuaVM()
        let error = scriptError(vm, "setmetatable({}, { __gc = function() end })")
        #expect(error?.kind == .sandbox)
        #expect(error?.message.contains("__gc") == true)
        #expect(try run(vm, "return getmetatable(setmetatable({}, { __index = { a = 1 } })).__index.a") == [1])
    }

    @Test("string.rep of empty strings returns at once")
    func emptyRep() throws {
        let vm = try LuaVM()
        #expect(try run(vm, "return string.rep('', 1e15), ('ab'):rep(3, '-')") == ["", "ab-ab-ab"])
    }
}
