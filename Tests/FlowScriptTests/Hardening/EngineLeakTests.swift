import FlowStackCore
import FlowStackTestSupport
import Foundation
import Testing
@testable import FlowLua
@testable import FlowScript

/// A weak reference that can sit in an array.
final class WeakBox<T: AnyObject> {
    weak var value: T?
    init(_ value: T?) { self.value = value }
}

/// An object whose release a weak reference observes.
final class Tracked {}

/// No Swift object handed to Lua through the rules engine outlives the VM it was handed to:
/// reloads retire VMs with everything registered in them, and closing and dropping the engine
/// releases the rest.
@Suite("Hardening: the engine releases what it hands to Lua")
@MainActor
struct EngineLeakTests {
    static let rules = [
        FlowRulesSource(name: "rules/track.lua", text: """
            flow.guard("detail", function(op)
              return host.track(op.route.name)
            end)
            flow.deeplink("/detail", function() return { flow.op("push", "detail") } end)
            flow.style.screen(function(c) return { navigationTitle = c.screenRoute.name } end)
            """),
    ]

    @Test("Host closures of retired generations are released; dropping the engine releases the rest")
    func reloadsRelease() throws {
        weak var first: Tracked?
        weak var second: Tracked?
        weak var weakEngine: FlowRulesEngine<FlowRouteValue>?
        var vms: [WeakBox<LuaVM>] = []
        do {
            let engine = try FlowRulesEngine<FlowRouteValue>(sources: Self.rules)
            weakEngine = engine
            let router = FlowRouter<FlowRouteValue, String>(root: FlowRouteValue("home"))
            engine.install(into: router)
            do {
                let object = Tracked()
                first = object
                engine.registerHost("track") { _ in
                    _ = object
                    return [.bool(true)]
                }
            }
            vms.append(WeakBox(engine.ruleSet?.vm))
            #expect(router.push(FlowRouteValue("detail")))
            for generation in 2...6 {
                #expect(engine.reload() == .loaded(generation: generation))
                vms.append(WeakBox(engine.ruleSet?.vm))
                #expect(router.push(FlowRouteValue("detail")))
                #expect(router.resolvedStyle(stackIndex: 0, screenDepth: 1) != nil)
            }
            // The VMs of generations 1 to 5 are closed and gone; the current one is alive.
            #expect(vms.dropLast().allSatisfy { $0.value == nil })
            #expect(vms.last?.value != nil)
            #expect(first != nil)

            // Replacing the host function: the old closure goes with the VM it is installed in.
            do {
                let object = Tracked()
                second = object
                engine.registerHost("track") { _ in
                    _ = object
                    return [.bool(true)]
                }
            }
            #expect(router.push(FlowRouteValue("detail")))
            #expect(engine.reload() == .loaded(generation: 7))
            #expect(first == nil)
            #expect(second != nil)

            // A failed reload builds a VM too: it must not stay behind.
            let failed = engine.reload(sources: [FlowRulesSource(name: "rules/bad.lua", text: "flow.guard('x', function() end) error('boom')")])
            if case .failed = failed {} else { Issue.record("the reload should fail: \(failed)") }
            engine.close()
            #expect(vms.allSatisfy { $0.value == nil })
        }
        #expect(weakEngine == nil)
        #expect(second == nil)
    }

    @Test("An async decision in flight keeps its VM until it finishes, then everything is released")
    func asyncInFlight() async throws {
        weak var tracked: Tracked?
        weak var firstVM: LuaVM?
        weak var weakEngine: FlowRulesEngine<FlowRouteValue>?
        let gate = AsyncGate()
        do {
            let engine = try FlowRulesEngine<FlowRouteValue>(sources: Self.rules)
            weakEngine = engine
            let router = FlowRouter<FlowRouteValue, String>(root: FlowRouteValue("home"))
            engine.install(into: router)
            do {
                let object = Tracked()
                tracked = object
                engine.registerAsyncHost("track") { _ in
                    _ = object
                    await gate.wait()
                    return [.bool(true)]
                }
            }
            firstVM = engine.ruleSet?.vm
            let navigation = Task { await router.pushAsync(FlowRouteValue("detail")) }
            while !(await gate.isWaiting) { await Task.yield() }
            #expect(engine.reload() == .loaded(generation: 2))
            #expect(firstVM != nil)  // still running the decision
            await gate.open()
            #expect(await navigation.value)
            #expect(firstVM == nil)
            engine.close()
        }
        #expect(weakEngine == nil)
        #expect(tracked == nil)
    }
}

// Tests that run a directory watcher join the serialized "Directory watcher" suite: its tests
// count the process's inotify descriptors, which a watcher running alongside would change.
extension DirectoryWatcherTests {
    @Test("Watching and reloading from disk, then stopping, leaves nothing behind")
    func watcherReloads() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-leak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("track.lua")
        try EngineLeakTests.rules[0].text.write(to: file, atomically: true, encoding: .utf8)
        weak var tracked: Tracked?
        weak var weakEngine: FlowRulesEngine<FlowRouteValue>?
        do {
            let engine = try FlowRulesEngine<FlowRouteValue>(directory: directory)
            weakEngine = engine
            do {
                let object = Tracked()
                tracked = object
                engine.registerHost("track") { _ in
                    _ = object
                    return [.bool(true)]
                }
            }
            try engine.startWatching(debounce: .milliseconds(20))
            for round in 1...3 {
                try (EngineLeakTests.rules[0].text + "\n-- round \(round)\n").write(to: file, atomically: true, encoding: .utf8)
                #expect(await eventually { engine.generation >= round + 1 })
                #expect(engine.generation == round + 1)
            }
            engine.stopWatching()
            engine.close()
        }
        #expect(weakEngine == nil)
        #expect(tracked == nil)
    }
}

/// A gate an async host function waits on until the test opens it.
actor AsyncGate {
    private var continuation: CheckedContinuation<Void, Never>?
    private var opened = false

    /// Whether a caller is waiting.
    var isWaiting: Bool { continuation != nil }

    /// Waits until `open()` (returns at once if it was called).
    func wait() async {
        if opened { return }
        await withCheckedContinuation { continuation = $0 }
    }

    /// Lets the waiter go.
    func open() {
        opened = true
        continuation?.resume()
        continuation = nil
    }
}
