import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// `flow.redirect(kind, route, reason, { resume = true })`: the refused navigation is held and
/// runs once a fact change lets the rules allow it.
@Suite("Engine: held navigations")
@MainActor
struct EngineHeldNavigationTests {
    static let rules = """
        flow.guard("orders", function(op, stacks, ctx)
          host.log("orders guard", op.source)
          if not facts.signedIn then
            return flow.redirect("sheet", "signIn", "sign in to see your orders", { resume = true })
          end
        end)
        """

    @Test("the navigation is held; a fact change dismisses the sign-in sheet and runs it (source resume)")
    func resumesOnFactChange() throws {
        let rig = try RulesRig(Self.rules)
        try rig.engine.setFact("signedIn", false)
        let result = rig.push("orders")
        #expect(result.status == .redirected)
        let pending = try #require(rig.router.pendingNavigation)
        #expect(pending.routes == [route("orders")])
        #expect(pending.reason == "sign in to see your orders")
        #expect(rig.router.topRoute == route("signIn"))
        try rig.engine.setFact("signedIn", true)
        #expect(rig.router.pendingNavigation == nil)
        #expect(rig.router.stacks.count == 1)
        #expect(rig.router.topRoute == route("orders"))
        #expect(rig.router.history.suffix(2).map(\.source) == [.resume, .resume])
        #expect(rig.log.last == "orders guard resume")
    }

    @Test("an unrelated fact change leaves it held; the sheet stays")
    func staysHeld() throws {
        let rig = try RulesRig(Self.rules)
        rig.push("orders")
        try rig.engine.setFact("theme", "dark")
        #expect(rig.router.pendingNavigation?.attempts == 2)
        #expect(rig.router.topRoute == route("signIn"))
    }

    @Test("resume = false, or no options, holds nothing")
    func noResume() throws {
        let rig = try RulesRig("""
            flow.guard("orders", function() return flow.redirect("sheet", "signIn", "no", { resume = false }) end)
            flow.guard("cart", function() return flow.redirect("sheet", "signIn", "no") end)
            """)
        rig.push("orders")
        rig.push("cart")
        #expect(rig.router.pendingNavigation == nil)
    }

    @Test("bad options are errors at the rule's line, with did-you-mean", arguments: [
        ("{ resum = true }", "rules/test.lua:1: unknown option 'resum' in flow.redirect's options (did you mean 'resume'?); the options are: resume"),
        ("{ resume = 'yes' }", "rules/test.lua:1: flow.redirect's option 'resume' must be a boolean"),
        ("'resume'", "rules/test.lua:1: bad argument #4 to 'flow.redirect' (options table expected"),
    ])
    func badOptions(options: String, message: String) throws {
        let rig = try RulesRig("flow.guard('orders', function() return flow.redirect('sheet', 'signIn', 'no', \(options)) end)")
        let result = rig.push("orders")
        #expect(result.status == .failed)
        #expect(result.reason?.contains(message) == true, "\(result.reason ?? "")")
        #expect(rig.router.pendingNavigation == nil)
    }
}
