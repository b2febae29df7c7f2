import FlowStackCore
import FlowStackTestSupport
import Foundation
import Testing
@testable import FlowScript

/// What the hostile scripts do to the engine that flows cannot see: a failing style rule's
/// diagnostic, and (below) a storm of reloads. Their flows run in process in FlowTestingTests
/// (`HostileFlowsInProcessTests`).
@Suite("Hardening: hostile scripts in the engine")
@MainActor
struct HostileEngineTests {
    /// `Tests/Hostile`.
    static let hostile = HostileProject.root

    @Test("A style rule returning garbage styles nothing and is reported with its file and line")
    func styleGarbageDiagnostic() throws {
        let rules = Self.hostile.appendingPathComponent("style-garbage/rules")
        let engine = try FlowRulesEngine<FlowRouteValue>(directory: rules)
        let router = FlowRouter<FlowRouteValue, String>(root: FlowRouteValue("root"))
        engine.install(into: router)
        let style = try #require(router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(style.screen.navigationBarHidden == true)
        #expect(router.sheet(FlowRouteValue("modal")))
        let modal = try #require(router.resolvedStyle(stackIndex: 1, screenDepth: 0)?.modal)
        #expect(modal.tint == nil)
        let descriptions = engine.diagnostics.map(\.description)
        let entry = try #require(HostileProject.all.first { $0.name == "style-garbage" })
        let message = try #require(entry.message)
        #expect(descriptions.contains { $0.hasPrefix(entry.location + ":") && $0.contains(message) }, "\(descriptions)")
        #expect(descriptions.contains { $0.contains("tint") && $0.contains("ignored") }, "\(descriptions)")
    }

    /// A rules file that blocks `target` with a versioned reason.
    nonisolated static func gate(_ version: String) -> String {
        "flow.guard(\"target\", function()\n  return false, \"closed \(version)\"\nend)\n"
    }
}

// Tests that run a directory watcher join the serialized "Directory watcher" suite: its tests
// count the process's inotify descriptors, which a watcher running alongside would change.
extension DirectoryWatcherTests {
    @Test("A reload storm: hundreds of writes to the rules while navigating; decisions stay whole, the last rules win")
    func reloadStorm() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-storm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("gate.lua")
        try HostileEngineTests.gate("v0").write(to: file, atomically: true, encoding: .utf8)

        let engine = try FlowRulesEngine<FlowRouteValue>(directory: directory)
        var loaded = 0, failed = 0
        let done = StormFlag()
        engine.onReload = { result in
            if case .loaded = result { loaded += 1 } else {
                failed += 1
                done.refused()
            }
        }
        let router = FlowRouter<FlowRouteValue, String>(root: FlowRouteValue("root"))
        engine.install(into: router)
        try engine.startWatching(debounce: .milliseconds(5))
        defer { engine.stopWatching() }

        // Writes from another thread, as an editor or a sync tool would (each write replaces the
        // file whole, as editors' safe saves do): valid versions, syntax errors, top-level
        // errors, top-level endless loops, files cut short.
        // Each write waits (up to 0.2 s) for a navigation since the previous one, so writes and
        // navigations interleave even when other tests keep the main actor busy.
        let writes = 400
        Thread.detachNewThread {
            var seen = 0
            for index in 1...writes {
                seen = done.waitForNavigation(after: seen, timeout: 0.2)
                // Half-way, a broken file stays until the engine has refused it, so the storm
                // surely includes a refused reload however the writes coalesce.
                if index == writes / 2 {
                    try? "error('broken on purpose')".write(to: file, atomically: true, encoding: .utf8)
                    done.waitForRefusal(timeout: 10)
                }
                let text: String
                switch index % 8 {
                case 1: text = "flow.guard(\"target\", function( return end"
                case 3: text = "error('broken at load " + String(index) + "')"
                case 5: text = "while true do end"
                case 7: text = String(HostileEngineTests.gate("v\(index)").prefix(20))
                default: text = HostileEngineTests.gate("v\(index)")
                }
                try? text.write(to: file, atomically: true, encoding: .utf8)
                // Mostly bursts (coalesced into one reload), now and then a pause long enough for one.
                Thread.sleep(forTimeInterval: index % 16 == 0 ? 0.02 : 0.002)
            }
            done.set()
        }

        var navigations = 0
        let reasonPattern = /closed v\d+/
        while !done.isSet {
            let result = router.perform(.push(FlowRouteValue("target"), target: .active))
            navigations += 1
            // Whichever generation decided, the decision is whole: blocked with that
            // generation's reason, never a half-loaded state.
            #expect(!result.isApplied)
            if let reason = result.reason, reason.firstMatch(of: reasonPattern) == nil {
                Issue.record("unexpected reason during the storm: \(reason)")
            }
            #expect(router.push(FlowRouteValue("free")))
            #expect(router.pop())
            done.navigated()
            try await Task.sleep(for: .milliseconds(1))
        }

        // The storm is over: the last write wins, once the watcher has caught up.
        try HostileEngineTests.gate("final").write(to: file, atomically: true, encoding: .utf8)
        var reason: String?
        let settled = await eventually {
            reason = router.perform(.push(FlowRouteValue("target"), target: .active)).reason
            return reason == "closed final"
        }
        #expect(settled, "last reason: \(reason ?? "none")")
        #expect(engine.lastLoadError == nil)
        #expect(loaded >= 2)
        #expect(failed >= 1)
        #expect(navigations >= 50)
        #expect(router.history.allSatisfy { $0.generation >= 1 && $0.generation <= engine.generation })
        print("reload storm: \(writes) writes, \(loaded + failed) reloads (\(loaded) loaded, \(failed) refused, previous rules kept), "
            + "\(navigations) navigations during the storm, generation \(engine.generation)")
    }
}

/// The storm's shared state: navigations done (main actor) and whether the writes are over.
final class StormFlag: @unchecked Sendable {
    private let condition = NSCondition()
    private var value = false
    private var navigations = 0

    /// Whether `set()` ran.
    var isSet: Bool { condition.withLock { value } }

    /// Sets the flag.
    func set() { condition.withLock { value = true } }

    private var refusals = 0

    /// Counts a refused reload.
    func refused() {
        condition.withLock {
            refusals += 1
            condition.broadcast()
        }
    }

    /// Waits until a reload was refused, or `timeout` seconds.
    func waitForRefusal(timeout: TimeInterval) {
        condition.withLock {
            let deadline = Date().addingTimeInterval(timeout)
            while refusals == 0, condition.wait(until: deadline) {}
        }
    }

    /// Counts a navigation.
    func navigated() {
        condition.withLock {
            navigations += 1
            condition.broadcast()
        }
    }

    /// Waits until more than `count` navigations happened, or `timeout` seconds; returns the count.
    func waitForNavigation(after count: Int, timeout: TimeInterval) -> Int {
        condition.withLock {
            let deadline = Date().addingTimeInterval(timeout)
            while navigations <= count, condition.wait(until: deadline) {}
            return navigations
        }
    }
}
