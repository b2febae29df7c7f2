import FlowStackCore
import Foundation
import Testing
@testable import FlowLua
@testable import FlowScript

/// Swift objects handed to Lua are released when the VM that holds them closes.
@Suite("Engine: lifetimes")
@MainActor
struct EngineLifetimeTests {
    /// An object host closures capture.
    final class Probe {
        var calls = 0
    }

    static let rules = "flow.guard('probe', function() host.probe() end)"

    @Test("close() releases what registered host closures captured; the engine then allows everything")
    func closeReleasesHosts() throws {
        let rig = try RulesRig(Self.rules + "\nflow.guard('blocked', function() return false end)")
        weak var weakProbe: Probe?
        do {
            let probe = Probe()
            weakProbe = probe
            rig.engine.registerHost("probe") { _ in probe.calls += 1; return [] }
            rig.engine.registerAsyncHost("probeAsync") { _ in probe.calls += 1; return [] }
            rig.push("probe")
            #expect(probe.calls == 1)
        }
        #expect(weakProbe != nil, "the engine holds it while it runs")
        rig.engine.close()
        #expect(weakProbe == nil, "closing the engine releases the objects its host functions captured")
        #expect(rig.engine.memoryInUse == 0)
        #expect(rig.push("blocked").isApplied, "a closed engine allows everything")
    }

    @Test("A reload retires the old VM: a replaced host closure's captures are released")
    func reloadReleasesOldClosures() throws {
        let rig = try RulesRig(Self.rules)
        weak var weakProbe: Probe?
        do {
            let probe = Probe()
            weakProbe = probe
            rig.engine.registerHost("probe") { _ in probe.calls += 1; return [] }
            rig.push("probe")
        }
        let oldVM = try #require(rig.engine.ruleSet?.vm)
        rig.engine.registerHost("probe") { _ in [] }
        #expect(rig.engine.reload() == .loaded(generation: 2))
        #expect(oldVM.isClosed)
        #expect(weakProbe == nil)
        #expect(rig.push("probe").isApplied)
    }

    @Test("A failed reload closes the VM it was building")
    func failedReloadReleases() throws {
        let rig = try RulesRig(Self.rules)
        let probe = Probe()
        rig.engine.registerHost("probe") { _ in probe.calls += 1; return [] }
        #expect(rig.engine.reload(sources: [FlowRulesSource(name: "rules/x.lua", text: "host.probe()\nerror('stop')")])
            == .failed(FlowScriptError(kind: .runtime, file: "rules/x.lua", line: 2, message: "stop"), keptGeneration: 1))
        #expect(probe.calls == 1, "the failed load's top level ran once")
        #expect(rig.engine.ruleSet?.vm.isClosed == false)
        rig.push("probe")
        #expect(probe.calls == 2)
    }

    @Test("The retired VM stays open for an async decision still running in it, then closes")
    func retiredVMWaitsForAsyncCall() async throws {
        let latch = HostLatch()
        let rig = try RulesRig("flow.guard('slow', function() host.wait() end)")
        rig.engine.registerAsyncHost("wait") { _ in [await latch.wait()] }
        let oldVM = try #require(rig.engine.ruleSet?.vm)
        let task = Task { @MainActor in await rig.router.pushAsync(route("slow")) }
        await latch.waitForArrivals(1)
        rig.engine.reload()
        #expect(!oldVM.isClosed)
        latch.resume(with: nil)
        #expect(await task.value)
        #expect(oldVM.isClosed)
    }

    @Test("An engine and its router are freed together: no cycle through the VM")
    func noCycles() throws {
        weak var weakEngine: FlowRulesEngine<FlowRouteValue>?
        weak var weakRouter: ScriptRouter?
        weak var weakProbe: Probe?
        do {
            let rig = try RulesRig(Self.rules + "\nflow.style.screen(function() print('styled') end)")
            let probe = Probe()
            weakProbe = probe
            rig.engine.registerHost("probe") { [weak router = rig.router] _ in
                probe.calls += 1
                return [.bool(router != nil)]
            }
            rig.engine.onPrint = { _ in probe.calls += 1 }
            rig.push("probe")
            _ = rig.router.resolvedStyle(stackIndex: 0, screenDepth: 0)
            #expect(probe.calls == 2)
            weakEngine = rig.engine
            weakRouter = rig.router
        }
        #expect(weakRouter == nil)
        #expect(weakEngine == nil)
        #expect(weakProbe == nil)
    }
}
