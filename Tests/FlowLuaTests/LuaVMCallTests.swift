import FlowLuaTestSupport
import Testing
@testable import FlowLua

@Suite("Hot-path calls")
@MainActor
struct LuaVMCallTests {
    @Test("A dumped function loads into another VM, keeps its chunk name and lines, and runs")
    func dumpAndLoadTrusted() throws {
        let first = try LuaVM()
        let function = try first.load(source: "local x = ...\nif x == 0 then error('zero') end\nreturn x * 2", chunkName: "rules/dumped.lua")
        let bytes = try #require(first.dump(function))
        #expect(bytes.starts(with: [0x1B, 0x4C, 0x75, 0x61]))  // "\eLua": a binary chunk
        first.close()
        let second = try LuaVM()
        let loaded = try second.loadTrusted(binary: bytes, chunkName: "rules/dumped.lua")
        #expect(try second.call(loaded, [.integer(21)]) == [.integer(42)])
        #expect(throws: FlowScriptError(kind: .runtime, file: "rules/dumped.lua", line: 2, message: "zero")) {
            try second.call(loaded, [.integer(0)])
        }
    }

    @Test("Arguments pushed by the writer reach the function, results are read in place")
    func writerAndReader() throws {
        let vm = try LuaVM()
        let chunk = try vm.load(source: """
            return function(op, names, flag, count)
              return op.kind, op.route.name, #names, names[2], flag, count + 1, nil, 2.5
            end
            """, chunkName: "rules/hot.lua")
        let function = try #require(try vm.call(chunk, []).first?.functionValue)
        let read = try vm.call(function, arguments: { writer in
            writer.pushTable(fieldCount: 2) { op in
                op.set("kind", "push")
                op.setTable("route", fieldCount: 1) { route in route.set("name", "detail") }
            }
            writer.push(strings: ["home", "detail", "paywall"])
            writer.push(true)
            writer.push(41)
        }, results: { (results: LuaResults) throws(FlowScriptError) in
            (results.count, try results.string(at: 1), try results.string(at: 2), try results.integer(at: 3),
             try results.string(at: 4), try results.bool(at: 5), try results.integer(at: 6),
             try results.optionalString(at: 7), results.isNil(at: 7), try results.number(at: 8), results.type(at: 9))
        })
        #expect(read.0 == 8)
        #expect(read.1 == "push")
        #expect(read.2 == "detail")
        #expect(read.3 == 3)
        #expect(read.4 == "detail")
        #expect(read.5 == true)
        #expect(read.6 == 42)
        #expect(read.7 == nil)
        #expect(read.8)
        #expect(read.9 == 2.5)
        #expect(read.10 == .none)
    }

    @Test("Reading a result of the wrong type fails with a type error")
    func resultTypeError() throws {
        let vm = try LuaVM()
        let chunk = try vm.load(source: "return nil, 'x'", chunkName: "r.lua")
        let error = scriptError { () throws(FlowScriptError) in
            _ = try vm.call(chunk, arguments: { _ in }, results: { results throws(FlowScriptError) in try results.bool(at: 1) })
        }
        #expect(error == FlowScriptError(kind: .typeError, message: "result #1: boolean expected, got nil"))
        #expect(try run(vm, "return 1") == [1])
    }

    @Test("The stack is left as it was after calls, failed ones included")
    func stackBalanced() throws {
        let vm = try LuaVM()
        let ok = try vm.load(source: "return 1, 2, 3", chunkName: "a.lua")
        let failing = try vm.load(source: "error('x')", chunkName: "b.lua")
        for _ in 0..<100 {
            _ = try vm.call(ok, [])
            _ = scriptError { () throws(FlowScriptError) in try vm.call(failing) }
        }
        #expect(vm.stackHeight == 1)
    }

    @Test("A host function that closes the VM lets the call finish first")
    func closeDuringCall() throws {
        let vm = try LuaVM()
        try vm.register("host.shutdown") { _, writer in
            vm.close()
            writer.push("still running")
            return 1
        }
        #expect(try run(vm, "local s = host.shutdown() return s .. '!'") == ["still running!"])
        #expect(vm.isClosed)
    }
}
