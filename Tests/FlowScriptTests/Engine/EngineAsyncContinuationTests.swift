import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// A decision's rule loop is C (clua_decide.c): when a rule suspends on an async host function,
/// the loop must carry on from that rule when it resumes, through every phase.
@Suite("Engine: decisions resumed after an async rule")
@MainActor
struct EngineAsyncContinuationTests {
    /// Rules that each suspend once, for every phase of a decision: two default preconditions,
    /// the guards of `op.route`, and the guards of each of `op.routes` not run yet.
    static let rules = """
        flow.precondition("*", function(op) host.log("p1", host.fetch("a")) end)
        flow.precondition("pushMany", function(op) host.log("p2", host.fetch("b")) end)
        flow.guard("editor", function() host.log("editor", host.fetch("c")) end)
        flow.guard("editor", function() host.log("editor again", host.fetch("d")); return true end)
        flow.guard("detail", function(op)
          host.log("detail", host.fetch("e"))
          if op.routes[#op.routes].name == "paywall" then
            return false, "no detail before the paywall (" .. host.fetch("f") .. ")"
          end
        end)
        flow.guard("paywall", function() host.log("paywall", host.fetch("g")); return nil end)
        """

    func rig() throws -> RulesRig {
        let rig = try RulesRig(Self.rules)
        rig.engine.registerAsyncHost("fetch") { arguments in
            await Task.yield()
            return [arguments.first ?? nil]
        }
        return rig
    }

    @Test("Every rule after a suspended one runs, in order, once per route name")
    func allPhasesResume() async throws {
        let rig = try rig()
        #expect(await rig.router.pushAsync(contentsOf: [route("editor"), route("detail"), route("editor")]))
        #expect(rig.log == ["p1 a", "p2 b", "editor c", "editor again d", "detail e"])
        #expect(rig.router.activeStack.path == [route("editor"), route("detail"), route("editor")])
    }

    @Test("A block after a suspension names its rule and reason; later rules do not run")
    func blockAfterResume() async throws {
        let rig = try rig()
        #expect(await rig.router.pushAsync(contentsOf: [route("detail"), route("paywall")]) == false)
        #expect(rig.log == ["p1 a", "p2 b", "detail e"])
        let entry = try #require(rig.router.history.last)
        #expect(entry.status == .blockedByGuard)
        #expect(entry.reason == "no detail before the paywall (f)")
    }

    @Test("A nil returned after a suspension blocks, with the rule's location as the reason")
    func nilAfterResume() async throws {
        let rig = try rig()
        #expect(await rig.router.pushAsync(route("paywall")) == false)
        #expect(rig.log == ["p1 a", "paywall g"])
        #expect(rig.router.history.last?.reason == "blocked by the guard at rules/test.lua:11")
    }

    @Test("The synchronous path runs the same rules without suspending")
    func syncPathRefusesAsyncHost() throws {
        let rig = try rig()
        let result = rig.push("editor")
        #expect(result.status == .failed)
        #expect(result.reason?.contains("asynchronous") == true, "\(result.reason ?? "")")
    }
}
