import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// Spec §2 "What rules can read and call": `host.<name>(...)`, sync and async, and the
/// read-only router inside rules.
@Suite("Engine: host functions")
@MainActor
struct EngineHostFunctionTests {
    @Test("A synchronous host function gets the arguments and returns its results")
    func syncHost() throws {
        let rig = try RulesRig("""
            flow.guard("probe", function()
              local sum, label, missing, list = host.add(2, 3.5, nil, "x")
              host.log(sum, label, tostring(missing), list[2])
            end)
            """)
        var received: [FlowScriptValue?] = []
        rig.engine.registerHost("add") { arguments in
            received = arguments
            guard case .int(let a)? = arguments[0], case .double(let b)? = arguments[1] else { throw FlowHostError("numbers expected") }
            return [.double(Double(a) + b), "sum", nil, ["p", "q"]]
        }
        rig.push("probe")
        #expect(received == [2, 3.5, nil, "x"])
        #expect(rig.log == ["5.5 sum nil q"])
        #expect(rig.engine.hostFunctionNames == ["add", "log"])
    }

    @Test("Registering a host function again replaces it")
    func reregistering() throws {
        let rig = try RulesRig("flow.guard('probe', function() host.log(host.answer()) end)")
        rig.engine.registerHost("answer") { _ in [1] }
        rig.push("probe")
        rig.engine.registerHost("answer") { _ in [2] }
        rig.push("probe")
        rig.engine.reload()
        rig.push("probe")
        #expect(rig.log == ["1", "2", "2"])
    }

    @Test("Calling a host function nobody registered is an error naming it")
    func missingHost() throws {
        let rig = try RulesRig("""
            flow.guard("probe", function()
              return host.camera()
            end)
            """)
        let result = rig.push("probe")
        #expect(result.status == .failed)
        let reason = try #require(result.reason)
        #expect(reason.hasPrefix("rules/test.lua:2: "), "\(reason)")
        #expect(reason.contains("no host function 'camera' is registered"), "\(reason)")
    }

    @Test("A host function that throws FlowHostError fails closed with its message")
    func throwingHost() throws {
        let rig = try RulesRig("""
            flow.guard("probe", function()
              local ok = host.check()
              return ok
            end)
            """)
        rig.engine.registerHost("check") { _ in throw FlowHostError("the server did not answer; try again") }
        let result = rig.push("probe")
        #expect(result.status == .failed)
        let reason = try #require(result.reason)
        #expect(reason.hasPrefix("rules/test.lua:2: "), "\(reason)")
        #expect(reason.contains("the server did not answer; try again"), "\(reason)")
        #expect(rig.router.activeStack.path.isEmpty)
    }

    @Test("A host error can be caught with pcall inside the rule")
    func hostErrorCaught() throws {
        let rig = try RulesRig("""
            flow.guard("probe", function()
              local ok, message = pcall(host.check)
              return false, tostring(ok) .. " " .. tostring(message):match("offline") 
            end)
            """)
        rig.engine.registerHost("check") { _ in throw FlowHostError("offline") }
        #expect(rig.push("probe").reason == "false offline")
    }

    @Test("An async host function suspends the rule in pushAsync until Swift resumes it")
    func asyncHostSuspends() async throws {
        let latch = HostLatch()
        let rig = try RulesRig("""
            flow.guard("camera", function(op)
              local granted = host.requestAccess("camera")
              if not granted then return false, "camera access denied" end
            end)
            """)
        var asked: [FlowScriptValue?] = []
        rig.engine.registerAsyncHost("requestAccess") { arguments in
            asked = arguments
            return [await latch.wait()]
        }
        let granted = Task { @MainActor in await rig.router.pushAsync(route("camera")) }
        await latch.waitForArrivals(1)
        #expect(latch.waitingCount == 1)
        #expect(asked == ["camera"])
        #expect(rig.router.activeStack.path.isEmpty, "nothing applies while the rule waits")
        latch.resume(with: true)
        #expect(await granted.value)
        #expect(rig.router.topRoute == route("camera"))

        let denied = Task { @MainActor in await rig.router.pushAsync(route("camera")) }
        await latch.waitForArrivals(2)
        latch.resume(with: false)
        #expect(await denied.value == false)
        #expect(rig.router.history.last?.reason == "camera access denied")
        #expect(rig.router.history.last?.status == .blockedByGuard)
    }

    @Test("An async host function during a synchronous navigation blocks with a message naming the async variant")
    func asyncHostInSyncNavigation() throws {
        let rig = try RulesRig("""
            flow.guard("camera", function()
              return host.requestAccess("camera")
            end)
            """)
        var called = false
        rig.engine.registerAsyncHost("requestAccess") { _ in called = true; return [true] }
        let result = rig.push("camera")
        #expect(result.status == .failed)
        let reason = try #require(result.reason)
        #expect(reason.hasPrefix("rules/test.lua:2: "), "\(reason)")
        #expect(reason.contains("asynchronous"), "\(reason)")
        #expect(reason.contains("pushAsync"), "\(reason)")
        #expect(!called)
        #expect(rig.router.activeStack.path.isEmpty)
    }

    @Test("An async host function that throws fails the async navigation closed")
    func asyncHostThrows() async throws {
        let rig = try RulesRig("""
            flow.guard("camera", function()

              return host.requestAccess()
            end)
            """)
        rig.engine.registerAsyncHost("requestAccess") { _ in
            await Task.yield()
            throw FlowHostError("permission service unavailable")
        }
        #expect(await rig.router.pushAsync(route("camera")) == false)
        let entry = try #require(rig.router.history.last)
        #expect(entry.status == .failed)
        #expect(entry.reason?.hasPrefix("rules/test.lua:3: ") == true, "\(entry.reason ?? "")")
        #expect(entry.reason?.contains("permission service unavailable") == true, "\(entry.reason ?? "")")
    }

    @Test("Several async host calls in one rule, and async rules redirecting")
    func asyncRedirect() async throws {
        let rig = try RulesRig("""
            flow.guard("editor", function()
              local a = host.fetch("a")
              local b = host.fetch("b")
              if a + b < 3 then return flow.redirect("sheet", "paywall", "need " .. (a + b)) end
            end)
            """)
        rig.engine.registerAsyncHost("fetch") { arguments in
            await Task.yield()
            return [arguments.first == "a" ? 1 : 1]
        }
        #expect(await rig.router.pushAsync(route("editor")) == false)
        #expect(rig.router.topRoute == route("paywall"))
        #expect(rig.router.history.first?.reason == "need 2")
    }

    @Test("Rules cannot navigate: a host function calling the router during a decision is refused")
    func routerReadOnlyInsideRules() throws {
        let rig = try RulesRig("""
            flow.guard("editor", function()
              host.log("nested push applied:", host.sneakyPush())
            end)
            """)
        rig.engine.registerHost("sneakyPush") { [weak router = rig.router] _ in
            [.bool(router?.push(route("sneaky")) ?? true)]
        }
        #expect(rig.push("editor").isApplied)
        #expect(rig.log == ["nested push applied: false"])
        #expect(rig.router.activeStack.path == [route("editor")])
        #expect(!rig.router.history.contains { $0.command?.routes == [route("sneaky")] })
    }

    @Test("Rules cannot navigate from an async decision either")
    func routerReadOnlyInsideAsyncRules() async throws {
        let rig = try RulesRig("""
            flow.guard("editor", function()
              host.log("nested push applied:", host.sneakyPush())
            end)
            """)
        rig.engine.registerAsyncHost("sneakyPush") { [weak router = rig.router] _ in
            [.bool(router?.push(route("sneaky")) ?? true)]
        }
        #expect(await rig.router.pushAsync(route("editor")))
        #expect(rig.log == ["nested push applied: false"])
        #expect(rig.router.activeStack.path == [route("editor")])
    }

    @Test("print goes to onPrint and the logger, with tabs between values")
    func printGoesToDiagnostics() throws {
        let rig = try RulesRig("""
            print("loaded", 1)
            flow.guard("probe", function(op)
              print("deciding", op.kind, nil, true, 2.5)
            end)
            """)
        var lines: [String] = []
        rig.engine.onPrint = { lines.append($0) }
        rig.push("probe")
        #expect(lines == ["deciding\tpush\tnil\ttrue\t2.5"])
        rig.engine.reload()
        #expect(lines == ["deciding\tpush\tnil\ttrue\t2.5", "loaded\t1"])
    }
}
