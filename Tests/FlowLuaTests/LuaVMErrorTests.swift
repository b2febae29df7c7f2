import FlowLuaTestSupport
import Testing
@testable import FlowLua

@Suite("Lua errors")
@MainActor
struct LuaVMErrorTests {
    @Test("A syntax error names the file and line")
    func syntaxError() throws {
        let vm = try LuaVM()
        let error = scriptError { () throws(FlowScriptError) in
            _ = try vm.load(source: "flow = {}\n\nlocal x = = 2\n", chunkName: "rules/paywall.lua")
        }
        #expect(error?.kind == .syntax)
        #expect(error?.file == "rules/paywall.lua")
        #expect(error?.line == 3)
        #expect(error?.message.contains("unexpected symbol near '='") == true)
        #expect(error?.description.hasPrefix("rules/paywall.lua:3: ") == true)
    }

    @Test("A runtime error names the file and line")
    func runtimeError() throws {
        let vm = try LuaVM()
        let error = scriptError(vm, "local t = nil\n\nreturn t.x\n", chunkName: "rules/paywall.lua")
        #expect(error?.kind == .runtime)
        #expect(error?.file == "rules/paywall.lua")
        #expect(error?.line == 3)
        #expect(error?.message == "attempt to index a nil value (local 't')")
        #expect(error?.description == "rules/paywall.lua:3: attempt to index a nil value (local 't')")
    }

    @Test("error() with a string points at its caller's line")
    func errorCall() throws {
        let vm = try LuaVM()
        let error = scriptError(vm, "local function f()\n  error('boom')\nend\nf()\n", chunkName: "rules/a.lua")
        #expect(error == FlowScriptError(kind: .runtime, file: "rules/a.lua", line: 2, message: "boom"))
        let leveled = scriptError(vm, "local function f()\n  error('boom', 2)\nend\nf()\n", chunkName: "rules/a.lua")
        #expect(leveled?.line == 4)
    }

    @Test("An error without position gets the innermost Lua line")
    func levelZero() throws {
        let vm = try LuaVM()
        let error = scriptError(vm, "\nerror('plain', 0)\n", chunkName: "rules/b.lua")
        #expect(error == FlowScriptError(kind: .runtime, file: "rules/b.lua", line: 2, message: "plain"))
    }

    @Test("An error object that is a table does not crash", arguments: [
        ("error({ code = 1 })", "error object is a table value"),
        ("error({ message = 'from a table' })", "from a table"),
        ("error(setmetatable({}, { __tostring = function() return 'custom text' end }))", "custom text"),
        ("error(setmetatable({}, { __tostring = function() error('inner') end }))", "error object's __tostring failed"),
        ("error(setmetatable({}, { __tostring = function() return 42 end }))", "returned a number value"),
        ("error(nil)", "error raised with a nil value"),
        ("error(true)", "error raised with a boolean value (true)"),
        ("error(12)", "12"),
    ])
    func oddErrorObjects(source: String, expected: String) throws {
        let vm = try LuaVM()
        let error = scriptError(vm, "local x = 1\n" + source, chunkName: "rules/odd.lua")
        #expect(error?.kind == .runtime)
        #expect(error?.message.contains(expected) == true, "\(String(describing: error))")
        #expect(error?.file == "rules/odd.lua")
        #expect(error?.line == 2)
    }

    @Test("A __tostring that loops forever is stopped by the budget")
    func loopingToString() throws {
        let vm = try LuaVM(configuration: .init(instructionBudget: 10_000))
        let error = scriptError(vm, "error(setmetatable({}, { __tostring = function() while true do end end }))")
        #expect(error?.kind == .instructionBudget)
    }

    @Test("Errors through coroutine.wrap keep a location")
    func wrappedCoroutineError() throws {
        let vm = try LuaVM()
        let error = scriptError(vm, "local f = coroutine.wrap(function()\n  error('inside')\nend)\nf()\n", chunkName: "rules/co.lua")
        #expect(error?.file == "rules/co.lua")
        #expect(error?.message.contains("inside") == true)
    }

    @Test("Long chunk names shortened by Lua are restored")
    func longChunkName() throws {
        let vm = try LuaVM()
        let name = "rules/" + String(repeating: "very-long-directory-name/", count: 4) + "guard.lua"
        let error = scriptError(vm, "error('x')", chunkName: name)
        #expect(error?.file == name)
    }

    @Test("Location prefixes are split off messages")
    func splitLocation() {
        #expect(FlowScriptError.splitLocation("a/b.lua:12: msg: more")! == ("a/b.lua", 12, "msg: more"))
        #expect(FlowScriptError.splitLocation("[string \"x:1\"]:3: y")! == ("[string \"x:1\"]", 3, "y"))
        #expect(FlowScriptError.splitLocation("no location: here") == nil)
        #expect(FlowScriptError.splitLocation("line\nb.lua:1: later") == nil)
    }

    @Test("The description reads file:line: message")
    func description() {
        #expect(FlowScriptError(kind: .runtime, file: "f.lua", line: 3, message: "m").description == "f.lua:3: m")
        #expect(FlowScriptError(kind: .runtime, file: "f.lua", message: "m").description == "f.lua: m")
        #expect(FlowScriptError(kind: .runtime, message: "m").description == "m")
    }

    @Test("Calls on a closed VM fail with a closed error")
    func closedVM() throws {
        let vm = try LuaVM()
        let chunk = try vm.load(source: "return 1", chunkName: "c.lua")
        vm.close()
        let error = scriptError { () throws(FlowScriptError) in try vm.call(chunk) }
        #expect(error?.kind == .closed)
        #expect(scriptError(vm, "return 1")?.kind == .closed)
    }
}
