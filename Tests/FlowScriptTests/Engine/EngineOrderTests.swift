import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// Spec §2 "Registration": which preconditions and guards run, and in which order.
@Suite("Engine: precondition and guard order")
@MainActor
struct EngineOrderTests {
    static let loggingRules = """
        flow.precondition("push", function(op) host.log("push#1") end)
        flow.precondition("*", function(op) host.log("star#1 " .. op.kind) end)
        flow.precondition("push", function(op) host.log("push#2") end)
        flow.precondition("sheet", function(op) host.log("sheet#1") end)
        flow.precondition("*", function(op) host.log("star#2 " .. op.kind) end)
        flow.guard("editor", function(op) host.log("guard#1 " .. op.kind) end)
        flow.guard("editor", function(op) host.log("guard#2") end)
        """

    @Test("Kind-specific and \"*\" preconditions run in registration order, then the guards")
    func registrationOrder() throws {
        let rig = try RulesRig(Self.loggingRules)
        #expect(rig.push("editor").isApplied)
        #expect(rig.log == ["push#1", "star#1 push", "push#2", "star#2 push", "guard#1 push", "guard#2"])
        rig.clearLog()
        #expect(rig.router.sheet(route("editor")))
        #expect(rig.log == ["star#1 sheet", "sheet#1", "star#2 sheet", "guard#1 sheet", "guard#2"])
        rig.clearLog()
        #expect(rig.router.dismiss())
        #expect(rig.log == ["star#1 dismiss", "star#2 dismiss"])
    }

    @Test("The Swift default precondition runs before the Lua ones, and its block stops them")
    func swiftDefaultFirst() throws {
        let rig = try RulesRig(Self.loggingRules)
        let swiftAllows = Shared(true)
        rig.router.setDefaultPrecondition(for: .push) { _, _ in swiftAllows.value }
        #expect(rig.push("editor").isApplied)
        #expect(rig.log.first == "push#1")
        rig.clearLog()
        swiftAllows.value = false
        let blocked = rig.push("editor")
        #expect(blocked.status == .blockedByPrecondition)
        #expect(blocked.reason == "the default precondition for push returned false")
        #expect(rig.log.isEmpty)
    }

    @Test("The Swift default precondition is asked before the rules in the same request")
    func swiftDefaultBeforeLuaOrder() throws {
        var order: [String] = []
        let rig = try RulesRig("""
            flow.precondition("push", function(op) host.mark("lua precondition") end)
            flow.guard("editor", function(op) host.mark("lua guard") end)
            """)
        rig.engine.registerHost("mark") { arguments in
            if case .string(let text)? = arguments.first { order.append(text) }
            return []
        }
        rig.router.setDefaultPrecondition(for: .push) { _, _ in order.append("swift default"); return true }
        rig.router.guardOperation = { _ in order.append("swift guard"); return true }
        #expect(rig.push("editor").isApplied)
        #expect(order == ["swift default", "swift guard", "lua precondition", "lua guard"])
    }

    @Test("A one-off condition replaces the Swift and Lua defaults; the guards still run")
    func oneOffConditionReplacesDefaults() throws {
        let rig = try RulesRig(Self.loggingRules)
        var swiftDefaultAsked = false
        rig.router.setDefaultPrecondition(for: .push) { _, _ in swiftDefaultAsked = true; return false }
        var conditionAsked = false
        let applied = rig.router.push(route("editor"), condition: { _, _ in conditionAsked = true; return true })
        #expect(applied)
        #expect(conditionAsked)
        #expect(!swiftDefaultAsked)
        #expect(rig.log == ["guard#1 push", "guard#2"])
    }

    @Test("With a one-off condition, a blocking guard still blocks")
    func oneOffConditionKeepsGuards() throws {
        let rig = try RulesRig("""
            flow.precondition("*", function() return false, "default says no" end)
            flow.guard("editor", function() return false, "guard says no" end)
            """)
        let guarded = rig.router.perform(.push(route("editor"), target: .active), condition: { _, _ in true })
        #expect(guarded.status == .blockedByGuard)
        #expect(guarded.reason == "guard says no")
        let plain = rig.router.perform(.push(route("detail"), target: .active), condition: { _, _ in true })
        #expect(plain.isApplied)
        #expect(rig.push("detail").reason == "default says no")
    }

    @Test("A one-off condition that refuses stops everything")
    func oneOffConditionBlocks() throws {
        let rig = try RulesRig(Self.loggingRules)
        let result = rig.router.perform(.push(route("editor"), target: .active), condition: { _, _ in false })
        #expect(result.status == .blockedByPrecondition)
        #expect(rig.log.isEmpty)
    }

    @Test("A precondition's block stops the guards")
    func preconditionBeforeGuards() throws {
        let rig = try RulesRig("""
            flow.precondition("push", function() host.log("precondition"); return false, "first" end)
            flow.guard("editor", function() host.log("guard") end)
            """)
        let result = rig.push("editor")
        #expect(result.status == .blockedByPrecondition)
        #expect(result.reason == "first")
        #expect(rig.log == ["precondition"])
    }

    @Test("Several registrations for one key run in order; the first block decides")
    func firstBlockDecides() throws {
        let rig = try RulesRig("""
            flow.guard("editor", function() host.log("one") end)
            flow.guard("editor", function() host.log("two"); return true end)
            flow.guard("editor", function() host.log("three"); return false, "third blocks" end)
            flow.guard("editor", function() host.log("four"); return flow.redirect("sheet", "paywall") end)
            """)
        let result = rig.push("editor")
        #expect(result.status == .blockedByGuard)
        #expect(result.reason == "third blocks")
        #expect(rig.log == ["one", "two", "three"])
    }

    @Test("Several registrations for one key: the first redirect decides")
    func firstRedirectDecides() throws {
        let rig = try RulesRig("""
            flow.precondition("push", function() host.log("p1") end)
            flow.precondition("push", function() host.log("p2"); return flow.redirect("sheet", "login", "p2 redirects") end)
            flow.precondition("push", function() host.log("p3"); return false end)
            flow.guard("editor", function() host.log("guard") end)
            """)
        let result = rig.push("editor")
        #expect(result.status == .redirected)
        #expect(result.reason == "p2 redirects")
        #expect(rig.log == ["p1", "p2"])
    }

    @Test("A guard runs for op.route and for every name in op.routes (pushMany), once per name")
    func guardsForEveryRoute() throws {
        let rig = try RulesRig("""
            flow.guard("a", function(op) host.log("a", op.kind) end)
            flow.guard("b", function(op) host.log("b", op.kind) end)
            flow.guard("c", function(op) host.log("c", op.kind); return false, "c is locked" end)
            """)
        #expect(rig.router.push(contentsOf: [route("a"), route("x"), route("b"), route("b", ["n": 2])]))
        #expect(rig.log == ["a pushMany", "b pushMany"])
        #expect(rig.router.activeStack.path.count == 4)
        rig.clearLog()
        let blocked = rig.router.push(contentsOf: [route("b"), route("c"), route("a")])
        #expect(!blocked)
        #expect(rig.log == ["b pushMany", "c pushMany"])
        #expect(rig.router.history.last?.reason == "c is locked")
        #expect(rig.router.activeStack.path.count == 4)
    }

    @Test("replacePath: the guards of the root and of every path route run")
    func guardsForReplacePath() throws {
        let rig = try RulesRig("""
            flow.guard("home", function(op) host.log("home", op.kind, op.route.name) end)
            flow.guard("b", function(op) host.log("b", #op.routes) end)
            """)
        #expect(rig.router.replacePath(root: route("home"), path: [route("a"), route("b")]))
        #expect(rig.log == ["home replacePath home", "b 3"])
    }

    @Test("A guard runs whatever the kind that targets its route")
    func guardsForEveryKind() throws {
        let rig = try RulesRig("flow.guard('editor', function(op) host.log(op.kind) end)")
        rig.router.setRoot(route("editor"))
        rig.router.push(route("editor"))
        rig.router.replaceCurrent(with: route("editor"))
        rig.router.pushRemovingPrevious(route("editor"))
        rig.router.push(route("other"))
        rig.router.popTo(route("editor"))
        rig.router.sheet(route("editor"))
        rig.router.fullScreenCover(route("editor"))
        #expect(rig.log == ["setRoot", "push", "replaceCurrent", "pushRemovingPrevious", "popTo", "sheet", "fullScreenCover"])
    }
}
