import FlowLuaTestSupport
import Testing
@testable import FlowLua

/// A gate an async host function waits on until the test opens it.
@MainActor
final class Gate {
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private(set) var arrivals = 0

    /// Suspends until `open()`.
    func wait() async {
        arrivals += 1
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Resumes every waiter.
    func open() {
        let current = waiters
        waiters.removeAll()
        for waiter in current { waiter.resume() }
    }

    /// Yields until someone waits at the gate.
    func waitForArrival(_ count: Int = 1) async {
        while arrivals < count { await Task.yield() }
    }
}

@Suite("Asynchronous host functions")
@MainActor
struct LuaVMAsyncTests {
    func vmWithCamera(gate: Gate? = nil) throws -> LuaVM {
        let vm = try LuaVM()
        try vm.registerAsync("host.camera") { arguments in
            if let gate { await gate.wait() } else { await Task.yield() }
            return [.string("granted:" + (arguments.first?.stringValue ?? "?")), .integer(arguments.count)]
        }
        return vm
    }

    @Test("An async host function suspends the script and resumes it with the results")
    func suspendAndResume() async throws {
        let gate = Gate()
        let vm = try vmWithCamera(gate: gate)
        let rule = try vm.load(source: "local a, n = host.camera('front')\nreturn a .. '!', n", chunkName: "rules/cam.lua")
        let task = Task { @MainActor in try await vm.callAsync(rule) }
        await gate.waitForArrival()
        // While the rule is suspended, synchronous calls still run.
        #expect(try run(vm, "return 1 + 1") == [2])
        gate.open()
        #expect(try await task.value == ["granted:front!", 1])
    }

    @Test("Several suspensions in one call, inside pcall too")
    func severalSuspensions() async throws {
        let vm = try vmWithCamera()
        let rule = try vm.load(source: """
            local first = host.camera('a')
            local ok, second = pcall(host.camera, 'b')
            return first, ok, second
            """, chunkName: "rules/two.lua")
        #expect(try await vm.callAsync(rule) == ["granted:a", true, "granted:b"])
    }

    @Test("Arguments reach the async call and the result is converted")
    func arguments() async throws {
        let vm = try vmWithCamera()
        let rule = try vm.load(source: "return function(op) return host.camera(op.kind) end", chunkName: "rules/args.lua")
        let function = try #require(try vm.call(rule, []).first?.functionValue)
        #expect(try await vm.callAsync(function, [["kind": "push"]]) == ["granted:push", 1])
    }

    @Test("An async host error is raised in the script at the call's line")
    func asyncError() async throws {
        struct Denied: Error, CustomStringConvertible { var description: String { "permission denied" } }
        let vm = try LuaVM()
        try vm.registerAsync("host.permission") { _ in throw Denied() }
        let rule = try vm.load(source: "local x = 1\nreturn host.permission()", chunkName: "rules/p.lua")
        await #expect(throws: FlowScriptError(kind: .host, file: "rules/p.lua", line: 2, message: "host.permission: permission denied")) {
            try await vm.callAsync(rule)
        }
        let caught = try vm.load(source: "return pcall(host.permission)", chunkName: "rules/p.lua")
        #expect(try await vm.callAsync(caught) == [false, "host.permission: permission denied"])
    }

    @Test("In a synchronous call an async host function fails with a message naming the async variants")
    func syncCallRefused() throws {
        let vm = try vmWithCamera()
        let error = scriptError(vm, "\nhost.camera()", chunkName: "rules/sync.lua")
        #expect(error == FlowScriptError(
            kind: .asyncHostInSyncCall, file: "rules/sync.lua", line: 2,
            message: "host.camera is asynchronous: call it from an async navigation (pushAsync, sheetAsync, ...)"))
    }

    @Test("Inside a coroutine the script created, an async host function is refused")
    func scriptCoroutineRefused() async throws {
        let vm = try vmWithCamera()
        let rule = try vm.load(source: "return coroutine.wrap(function() return host.camera() end)()", chunkName: "rules/co.lua")
        let error = await thrownAsync { () async throws(FlowScriptError) in _ = try await vm.callAsync(rule) }
        #expect(error?.kind == .host)
        #expect(error?.message.contains("inside a coroutine the script created") == true)
        let sorted = try vm.load(source: "table.sort({ 2, 1 }, function(a, b) host.camera() return a < b end)", chunkName: "rules/sort.lua")
        let sortError = await thrownAsync { () async throws(FlowScriptError) in _ = try await vm.callAsync(sorted) }
        #expect(sortError?.message.contains("cannot be called here") == true)
    }

    @Test("The instruction budget spans the resumes of one call")
    func budgetAcrossResumes() async throws {
        let vm = try vmWithCamera()
        vm.instructionBudget = 60_000
        let source = "for i = 1, 25000 do end host.camera() for i = 1, 25000 do end host.camera() for i = 1, 25000 do end"
        let rule = try vm.load(source: source, chunkName: "rules/budget.lua")
        // Each loop alone fits; the three together do not.
        let error = await thrownAsync { () async throws(FlowScriptError) in _ = try await vm.callAsync(rule) }
        #expect(error?.kind == .instructionBudget)
        #expect(error?.file == "rules/budget.lua")
        vm.instructionBudget = 200_000
        #expect(try await vm.callAsync(rule) == [])
    }

    @Test("A memory bomb in an async call is stopped at its line")
    func asyncMemoryBomb() async throws {
        let vm = try LuaVM(configuration: .init(memoryBudget: 4 << 20, instructionBudget: 100_000_000))
        try vm.registerAsync("host.wait") { _ in [] }
        let rule = try vm.load(source: "host.wait()\nlocal t = {}\nfor i = 1, 1e9 do t[i] = ('x'):rep(64) .. i end", chunkName: "rules/m.lua")
        let error = await thrownAsync { () async throws(FlowScriptError) in _ = try await vm.callAsync(rule) }
        #expect(error?.kind == .memoryBudget)
        #expect(error?.file == "rules/m.lua")
        #expect(error?.line == 3)
        #expect(try run(vm, "return 1") == [1])
    }

    @Test("A rule that yields by itself fails clearly")
    func bareYield() async throws {
        let vm = try LuaVM()
        let rule = try vm.load(source: "\ncoroutine.yield(1)", chunkName: "rules/y.lua")
        let error = await thrownAsync { () async throws(FlowScriptError) in _ = try await vm.callAsync(rule) }
        #expect(error?.message.contains("coroutine.yield") == true)
        #expect(error?.line == 2)
        #expect(scriptError { () throws(FlowScriptError) in try vm.call(rule) }?.message.contains("yield") == true)
    }

    @Test("Closing the VM while a call is suspended ends the call with a closed error")
    func closeWhileSuspended() async throws {
        let gate = Gate()
        let vm = try vmWithCamera(gate: gate)
        let rule = try vm.load(source: "return host.camera()", chunkName: "rules/c.lua")
        let task = Task { @MainActor in try await vm.callAsync(rule) }
        await gate.waitForArrival()
        vm.close()
        gate.open()
        let result = await task.result
        #expect(throws: FlowScriptError.self) { try result.get() }
        if case .failure(let error) = result { #expect((error as? FlowScriptError)?.kind == .closed) }
    }
}
