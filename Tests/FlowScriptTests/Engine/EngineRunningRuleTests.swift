import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// Errors whose own location is lost (a tail call into the prelude removes the rule's frame) name
/// the rule that was running: decide keeps which one it runs without writing a table per rule
/// (clua_decide.c), so these check it stays right across lists, phases, style calls, failures
/// and suspended async decisions.
@Suite("Engine: the running rule names lost locations")
@MainActor
struct EngineRunningRuleTests {
    @Test("The third default precondition of a list is named, not the first")
    func positionInList() throws {
        let rig = try RulesRig("""
            flow.precondition("*", function() end)
            flow.precondition("push", function() return true end)
            flow.precondition("*", function() return flow.redirect("nope", "home") end)
            """)
        let reason = try #require(rig.push("detail").reason)
        #expect(reason.hasPrefix("rules/test.lua:3: "), "\(reason)")
        #expect(reason.contains("unknown operation kind 'nope'"), "\(reason)")
    }

    @Test("A guard after the default preconditions is named (a later list)")
    func laterList() throws {
        let rig = try RulesRig("""
            flow.precondition("*", function() end)
            flow.guard("detail", function() end)
            flow.guard("detail", function()
              return flow.redirect("push")
            end)
            """)
        let reason = try #require(rig.push("detail").reason)
        #expect(reason.hasPrefix("rules/test.lua:3: "), "\(reason)")
    }

    @Test("The rule of each route's guards is named in a pushMany")
    func routesPhase() throws {
        let rig = try RulesRig("""
            flow.guard("a", function() end)
            flow.guard("b", function() return flow.redirect(42) end)
            """)
        #expect(rig.router.push(contentsOf: [route("a"), route("b")]) == false)
        let reason = try #require(rig.router.history.last?.reason)
        #expect(reason.hasPrefix("rules/test.lua:2: "), "\(reason)")
    }

    @Test("A style rule's lost location names the style rule; a decision after it names its own rule")
    func styleThenDecision() throws {
        let rig = try RulesRig("""
            flow.style.screen(function(c) return flow.op("nope") end)
            flow.guard("detail", function() return flow.redirect("nope", "home") end)
            """)
        _ = rig.router.resolvedStyle(stackIndex: 0, screenDepth: 0)
        let diagnostic = try #require(rig.engine.diagnostics.first { $0.message.contains("style rule failed") })
        #expect(diagnostic.file == "rules/test.lua" && diagnostic.line == 1, "\(diagnostic)")
        let reason = try #require(rig.push("detail").reason)
        #expect(reason.hasPrefix("rules/test.lua:2: "), "\(reason)")
        // And a failed decision does not leak into the next style resolution.
        _ = rig.router.resolvedStyle(stackIndex: 0, screenDepth: 0)
        #expect(rig.engine.diagnostics.allSatisfy { $0.line != 2 }, "\(rig.engine.diagnostics)")
    }

    @Test("A failure before any rule runs names no rule")
    func noRuleRunning() throws {
        let rig = try RulesRig("""
            flow.guard("detail", function() return flow.redirect("nope", "home") end)
            flow.guard("home", function() end)
            """)
        #expect(try #require(rig.push("detail").reason).hasPrefix("rules/test.lua:1: "))
        // The next decision's rules allow: nothing stale is reported.
        #expect(rig.push("home").status == .applied)
        #expect(rig.router.history.last?.reason == nil)
    }

    @Test("A suspended async decision resumed after another decision names its own rule")
    func asyncInterleaved() async throws {
        let rig = try RulesRig("""
            flow.guard("slow", function()
              host.wait()
              return flow.redirect("nope", "home")
            end)
            flow.guard("fast", function() return true end)
            flow.guard("fast", function() end)
            """)
        let latch = HostLatch()
        rig.engine.registerAsyncHost("wait") { _ in [await latch.wait()] }
        let slow = Task { await rig.router.pushAsync(route("slow")) }
        await latch.waitForArrivals(1)
        // A synchronous decision runs (and finishes) while the async one is suspended.
        #expect(rig.engine.decide(FlowRuleRequest(
            kind: .push, route: FlowRouteValue("fast"), target: 1, stacks: rig.router.ruleStacks)) == .allow)
        latch.resume(with: nil)
        #expect(await slow.value == false)
        let reason = try #require(rig.router.history.last?.reason)
        #expect(reason.hasPrefix("rules/test.lua:1: "), "\(reason)")
        #expect(reason.contains("unknown operation kind 'nope'"), "\(reason)")
    }
}
