import FlowLuaTestSupport
import Testing
@testable import FlowLua

/// An object whose deallocation a weak reference can observe.
final class Canary {}

@Suite("Host functions")
@MainActor
struct LuaVMHostFunctionTests {
    @Test("A registered function reads typed arguments and returns values")
    func registerAndCall() throws {
        let vm = try LuaVM()
        try vm.register("host.greet") { arguments, writer in
            let name = try arguments.string(at: 1)
            let times = try arguments.integer(at: 2)
            writer.push(String(repeating: "hi \(name) ", count: times))
            writer.push(arguments.count)
            return 2
        }
        try vm.register("flow.pair", returning: { arguments in
            [try arguments.value(at: 1), .table(["n": .integer(arguments.count)])]
        })
        #expect(try run(vm, "return host.greet('ada', 2)") == ["hi ada hi ada ", 2])
        #expect(try run(vm, "local a, b = flow.pair({ 1, 2 }) return a[2], b.n") == [2, 1])
    }

    @Test("A bad argument raises a type error naming the function")
    func badArgument() throws {
        let vm = try LuaVM()
        try vm.register("flow.guard") { arguments, _ in
            _ = try arguments.string(at: 1)
            _ = try arguments.function(at: 2)
            return 0
        }
        let error = scriptError(vm, "\nflow.guard('editor', 42)", chunkName: "rules/g.lua")
        #expect(error == FlowScriptError(
            kind: .typeError, file: "rules/g.lua", line: 2,
            message: "bad argument #2 to 'flow.guard' (function expected, got number)"))
    }

    @Test("A Swift error becomes a Lua error the script can catch")
    func swiftErrors() throws {
        struct Refused: Error, CustomStringConvertible { var description: String { "camera refused" } }
        let vm = try LuaVM()
        try vm.register("host.fail") { _, _ in throw Refused() }
        let error = scriptError(vm, "host.fail()", chunkName: "rules/h.lua")
        #expect(error == FlowScriptError(kind: .host, file: "rules/h.lua", line: 1, message: "host.fail: camera refused"))
        #expect(try run(vm, "local ok, e = pcall(function() host.fail() end) return ok, e", chunkName: "rules/h.lua")
            == [false, "rules/h.lua:1: host.fail: camera refused"])
        // Called straight from pcall (a C function), there is no Lua caller to point at.
        #expect(try run(vm, "return pcall(host.fail)") == [false, "host.fail: camera refused"])
        let rethrown = scriptError(vm, "local ok, e = pcall(host.fail)\nerror(e, 0)")
        #expect(rethrown?.kind == .host)
    }

    @Test("A host function can call back into Lua under the same budget")
    func nestedCall() throws {
        let vm = try LuaVM(configuration: .init(instructionBudget: 50_000))
        defer { vm.close() }  // the host function holds the VM: closing breaks the cycle
        try vm.register("host.apply") { arguments, writer in
            let function = try arguments.function(at: 1)
            let results = try vm.call(function, [try arguments.value(at: 2)])
            for result in results { try writer.push(result) }
            return results.count
        }
        #expect(try run(vm, "return host.apply(function(x) return x * 2 end, 21)") == [42])
        let error = scriptError(vm, "host.apply(function() while true do end end)")
        #expect(error?.kind == .instructionBudget)
        let inner = scriptError(vm, "host.apply(function()\n  error('inner')\nend)", chunkName: "rules/n.lua")
        #expect(inner == FlowScriptError(kind: .runtime, file: "rules/n.lua", line: 2, message: "inner"))
    }

    @Test("print goes to the sink, tab-joined with tostring")
    func printSink() throws {
        let vm = try LuaVM()
        var lines: [String] = []
        vm.printSink = { lines.append($0) }
        _ = try run(vm, "print('a', 1, 2.5, nil, true, setmetatable({}, { __tostring = function() return 'T' end }))\nprint()")
        #expect(lines == ["a\t1\t2.5\tnil\ttrue\tT", ""])
        vm.printSink = nil
        #expect(throws: Never.self) { try run(vm, "print('dropped')") }
    }

    @Test("Closures of registered functions are released when the VM closes")
    func releaseOnClose() throws {
        weak var weakCanary: Canary?
        let vm = try LuaVM()
        do {
            let canary = Canary()
            weakCanary = canary
            try vm.register("host.keep") { _, writer in
                writer.push(ObjectIdentifier(canary).hashValue != 0)
                return 1
            }
            vm.printSink = { _ in _ = canary }
        }
        #expect(weakCanary != nil)
        #expect(try run(vm, "return host.keep()") == [true])
        vm.close()
        #expect(weakCanary == nil)
    }

    @Test("Closures are released when the VM is dropped")
    func releaseOnDeinit() throws {
        weak var weakCanary: Canary?
        weak var weakVM: LuaVM?
        do {
            let vm = try LuaVM()
            weakVM = vm
            let canary = Canary()
            weakCanary = canary
            try vm.register("host.keep") { _, _ in _ = canary; return 0 }
            _ = try run(vm, "host.keep()")
        }
        #expect(weakVM == nil)
        #expect(weakCanary == nil)
    }

    @Test("Registering under a non-table value fails clearly")
    func badPath() throws {
        let vm = try LuaVM()
        try vm.setGlobal("flow", "text")
        let error = scriptError { () throws(FlowScriptError) in try vm.register("flow.guard") { _, _ in 0 } }
        #expect(error?.message == "cannot set 'flow.guard': 'flow' is a string, not a table")
        #expect(scriptError { () throws(FlowScriptError) in try vm.setGlobal("a..b", 1) }?.kind == .typeError)
    }
}
