import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// Spec §2: `flow.redirect(kind, route [, reason])`, redirects checked by the rules, loops.
@Suite("Engine: redirects")
@MainActor
struct EngineRedirectTests {
    @Test("A redirect blocks the operation and performs the other one, with its reason")
    func redirectWithReason() throws {
        let rig = try RulesRig("""
            flow.guard("editor", function(op, stacks, ctx)
              if not facts.isPremium then
                return flow.redirect("fullScreenCover", "paywall", "premium required")
              end
            end)
            """)
        let result = rig.push("editor", ["id": "1"])
        #expect(result.status == .redirected)
        #expect(result.reason == "premium required")
        let followed = try #require(result.redirect)
        #expect(followed.isApplied)
        #expect(followed.command.kindName == "fullScreenCover")
        #expect(rig.router.stacks.count == 2)
        #expect(rig.router.activeStack.style == .fullScreenCover)
        #expect(rig.router.topRoute == route("paywall"))
        #expect(rig.router.rootStack.path.isEmpty)
        #expect(rig.router.history.map(\.status) == [.redirected, .applied])
    }

    @Test("A redirect without a reason says where it came from and where it goes")
    func redirectWithoutReason() throws {
        let rig = try RulesRig("""

            flow.guard("editor", function() return flow.redirect("sheet", { name = "login", from = "editor" }) end)
            """)
        let result = rig.push("editor")
        #expect(result.status == .redirected)
        #expect(result.reason == "redirected by rules/test.lua:2 to sheet login{from=\"editor\"}")
        #expect(rig.router.topRoute == route("login", ["from": "editor"]))
        #expect(rig.router.activeStack.style == .sheet)
    }

    @Test("Every kind can be a redirect target", arguments: [
        ("flow.redirect('push', 'login')", "push"),
        ("flow.redirect('pushMany', { 'login', 'help' })", "pushMany"),
        ("flow.redirect('setRoot', 'login')", "setRoot"),
        ("flow.redirect('replaceCurrent', 'login')", "replaceCurrent"),
        ("flow.redirect('pushRemovingPrevious', 'login')", "pushRemovingPrevious"),
        ("flow.redirect('replacePath', 'login')", "replacePath"),
        ("flow.redirect('popToRoot')", "popToRoot"),
        ("flow.redirect('pop')", "pop"),
        ("flow.redirect('popTo', 'home')", "popTo"),
        ("flow.redirect('sheet', 'login')", "sheet"),
        ("flow.redirect('dismissAll')", "dismissAll"),
    ])
    func redirectKinds(expression: String, kind: String) throws {
        let rig = try RulesRig("flow.guard('editor', function() return \(expression) end)")
        rig.push("list")
        let result = rig.push("editor")
        #expect(result.status == .redirected)
        #expect(result.redirect?.command.kindName == kind)
    }

    @Test("A redirect is itself checked by the rules (preconditions and guards)")
    func redirectIsChecked() throws {
        let rig = try RulesRig("""
            flow.guard("editor", function() return flow.redirect("sheet", "paywall", "premium required") end)
            flow.precondition("sheet", function(op) host.log("sheet precondition", op.route.name); return facts.canPresent, "no sheets now" end)
            """)
        let result = rig.push("editor")
        #expect(result.status == .redirected)
        let followed = try #require(result.redirect)
        #expect(followed.status == .blockedByPrecondition)
        #expect(followed.reason == "no sheets now")
        #expect(rig.router.stacks.count == 1)
        #expect(rig.log == ["sheet precondition paywall"])
    }

    @Test("Chained redirects: each target's guard may redirect again")
    func chainedRedirects() throws {
        let rig = try RulesRig("""
            flow.guard("editor", function() return flow.redirect("push", "paywall", "premium required") end)
            flow.guard("paywall", function() if not facts.isLoggedIn then return flow.redirect("sheet", "login", "login first") end end)
            """)
        let result = rig.push("editor")
        #expect(redirectDepth(result) == 2)
        #expect(result.redirect?.status == .redirected)
        #expect(result.redirect?.reason == "login first")
        #expect(finalResult(result).isApplied)
        #expect(rig.router.topRoute == route("login"))
        try rig.engine.setFact("isLoggedIn", true)
        let second = rig.push("editor")
        #expect(redirectDepth(second) == 1)
        #expect(rig.router.topRoute == route("paywall"))
    }

    @Test("More than 8 redirects is a redirect loop, reported with the chain at the rule that went one too far")
    func redirectLoop() throws {
        let rig = try RulesRig("""
            flow.guard("a", function() return flow.redirect("push", "b") end)
            flow.guard("b", function() return flow.redirect("push", "a") end)
            """)
        let result = rig.push("a")
        #expect(redirectDepth(result) == 8)
        let last = finalResult(result)
        #expect(last.status == .failed)
        let reason = try #require(last.reason)
        #expect(reason.hasPrefix("rules/test.lua:1: redirect loop: more than 8 redirects: push a → push b → push a"), "\(reason)")
        #expect(reason.components(separatedBy: "→").count == 10, "\(reason)")
        #expect(rig.router.activeStack.path.isEmpty)
    }

    @Test("Eight redirects in a row are still fine")
    func eightRedirectsAllowed() throws {
        let guards = (1...8).map { "flow.guard('r\($0)', function() return flow.redirect('push', 'r\($0 + 1)') end)" }
        let rig = try RulesRig(guards.joined(separator: "\n"))
        let result = rig.push("r1")
        #expect(redirectDepth(result) == 8)
        #expect(finalResult(result).isApplied)
        #expect(rig.router.topRoute == route("r9"))
    }

    @Test("A redirect with a bad kind or route is an error with the rule's file:line")
    func badRedirects() throws {
        let rig = try RulesRig("""
            flow.guard("a", function() return flow.redirect("shet", "login") end)
            flow.guard("b", function() return flow.redirect("push", 42) end)
            flow.guard("c", function() return flow.redirect("push") end)
            flow.guard("d", function() return flow.redirect("pushMany", "login") end)
            """)
        let a = rig.push("a")
        #expect(a.status == .failed)
        #expect(a.reason?.hasPrefix("rules/test.lua:1: unknown operation kind 'shet' (did you mean 'sheet'?)") == true, "\(a.reason ?? "")")
        let b = rig.push("b")
        #expect(b.status == .failed)
        #expect(b.reason?.hasPrefix("rules/test.lua:2: bad argument #2 to 'flow.redirect' (route expected, got number)") == true, "\(b.reason ?? "")")
        let c = rig.push("c")
        #expect(c.status == .failed)
        #expect(c.reason == "rules/test.lua:3: 'push' needs a route", "\(c.reason ?? "")")
        let d = rig.push("d")
        #expect(d.status == .failed)
        #expect(d.reason?.hasPrefix("rules/test.lua:4: ") == true, "\(d.reason ?? "")")
        #expect(rig.router.activeStack.path.isEmpty)
    }
}
