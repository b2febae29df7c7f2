import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// Calls back into the engine from inside a decision, and decisions that overlap.
@Suite("Engine: re-entrancy and overlapping decisions")
@MainActor
struct EngineReentrancyTests {
    @Test("A reload requested during a decision lands after it: the decision finishes with its rules")
    func reloadDuringDecision() throws {
        let rig = try RulesRig("""
            flow.guard("editor", function(op, stacks, ctx)
              host.reloadNow()
              return false, "decided by generation " .. ctx.generation
            end)
            """)
        let replacement = FlowRulesSource(name: "rules/new.lua", text: "flow.guard('editor', function() return true end)")
        var reloads: [FlowReloadResult] = []
        rig.engine.registerHost("reloadNow") { [weak engine = rig.engine] _ in
            if let result = engine?.reload(sources: [replacement]) { reloads.append(result) }
            return []
        }
        let result = rig.push("editor")
        #expect(result.reason == "decided by generation 1")
        #expect(reloads == [.loaded(generation: 2)])
        #expect(rig.push("editor").isApplied)
    }

    @Test("Resolving a style from inside a decision works")
    func styleDuringDecision() throws {
        let rig = try RulesRig("""
            flow.style.screen(function(c) return { navigationTitle = "T" .. c.screenDepth } end)
            flow.guard("editor", function()
              host.log(host.title())
            end)
            """)
        rig.engine.registerHost("title") { [weak router = rig.router] _ in
            [router?.resolvedStyle(stackIndex: 0, screenDepth: 0)?.screen.navigationTitle.map(FlowScriptValue.string) ?? "none"]
        }
        #expect(rig.push("editor").isApplied)
        #expect(rig.log == ["T0"])
    }

    @Test("A synchronous decision runs while an async one is suspended in the same VM")
    func syncWhileAsyncSuspended() async throws {
        let latch = HostLatch()
        let rig = try RulesRig("""
            flow.guard("slow", function(op)
              local answer = host.wait()
              host.log("slow", op.kind, op.route.name, tostring(op.async), answer)
            end)
            flow.guard("quick", function(op) host.log("quick", op.kind, op.route.name, tostring(op.async)); return false, "no" end)
            """)
        rig.engine.registerAsyncHost("wait") { _ in [await latch.wait()] }
        let task = Task { @MainActor in await rig.router.pushAsync(route("slow")) }
        await latch.waitForArrivals(1)
        #expect(rig.router.perform(.sheet(route("quick"))).reason == "no")
        latch.resume(with: "yes")
        #expect(await task.value)
        #expect(rig.log == ["quick sheet quick false", "slow push slow true yes"])
    }

    @Test("Two async decisions in a row each get their own op table")
    func asyncOpsAreSeparate() async throws {
        let rig = try RulesRig("""
            flow.precondition("*", function(op) host.pause(); host.log(op.kind, op.route and op.route.name) end)
            """)
        rig.engine.registerAsyncHost("pause") { _ in await Task.yield(); return [] }
        async let first = rig.router.pushAsync(route("a"))
        async let second = rig.router.sheetAsync(route("b"))
        let results = await (first, second)
        #expect(results == (true, true))
        #expect(Set(rig.log) == ["push a", "sheet b"])
    }

    @Test("close() while an async decision waits: it finishes, later operations are allowed")
    func closeDuringAsyncDecision() async throws {
        let latch = HostLatch()
        let rig = try RulesRig("""
            flow.guard("slow", function() return host.wait() end)
            flow.guard("blocked", function() return false end)
            """)
        rig.engine.registerAsyncHost("wait") { _ in [await latch.wait()] }
        let task = Task { @MainActor in await rig.router.pushAsync(route("slow")) }
        await latch.waitForArrivals(1)
        rig.engine.close()
        latch.resume(with: true)
        #expect(await task.value)
        #expect(rig.router.push(route("blocked")))
    }

    @Test("Setting a fact from a host function during a decision is seen at once")
    func factFromHost() throws {
        let rig = try RulesRig("""
            flow.guard("editor", function()
              local before = facts.flag
              host.setFlag()
              host.log(tostring(before), tostring(facts.flag))
            end)
            """)
        rig.engine.registerHost("setFlag") { [weak engine = rig.engine] _ in
            try engine?.setFact("flag", true)
            return []
        }
        rig.push("editor")
        #expect(rig.log == ["nil true"])
    }

    @Test("Guards also run for the initial path of setRoot and presentations")
    func guardsForInitialPaths() throws {
        let rig = try RulesRig("flow.guard('editor', function(op) host.log(op.kind, #(op.routes or {})); return false, 'locked' end)")
        #expect(!rig.router.setRoot(route("home"), path: [route("editor")]))
        #expect(!rig.router.sheet(route("picker"), path: [route("editor")]))
        #expect(!rig.router.fullScreenCover(route("cover"), path: [route("list"), route("editor")]))
        #expect(rig.log == ["setRoot 2", "sheet 2", "fullScreenCover 3"])
        #expect(rig.router.stacks.count == 1)
        #expect(rig.router.rootStack.path.isEmpty)
    }
}
