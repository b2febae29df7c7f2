import FlowStackCore
import Foundation
import Testing

/// A held deep link and a held navigation together: one request waits at most, and the newer
/// replaces the older, so signing in lands where the person last asked to go.
@MainActor
@Suite("Deep link pipeline: a held link and a held navigation")
struct DeepLinkHeldTogetherTests {
    /// The editor needs a sign-in; the refusal holds what was asked for (`resume`).
    final class Rules: FlowRulesHook {
        var isLoggedIn = false
        var generation: Int { 1 }

        func decide(_ request: FlowRuleRequest) -> FlowRuleDecision {
            guard request.routeNames.contains("editor"), !isLoggedIn else { return .allow }
            return .redirect(
                FlowRuleTarget(.sheet, route: LinkRoute.login.flowRoute),
                FlowRuleBlock(stage: .guard, reason: "login required", resume: true))
        }
    }

    func makeRouter() throws -> (LinkRouter, Rules) {
        let rules = Rules()
        let (router, _) = try makeLinkRouter()
        router.installRules(rules)
        return (router, rules)
    }

    @Test("a link applied after a navigation was held drops it: signing in stays where the link led")
    func appliedLinkDropsHeldNavigation() throws {
        let (router, rules) = try makeRouter()
        #expect(!router.push(.editor))
        #expect(router.pendingNavigation != nil)
        router.dismiss()
        #expect(router.open(url: try link("myapp://products/7")).status == .applied)
        #expect(router.pendingNavigation == nil)
        rules.isLoggedIn = true
        router.factsDidChange()
        #expect(router.rootStack.path == [.detail(id: "7")])
    }

    @Test("a link held after a navigation replaces it; signing in runs the link only")
    func heldLinkReplacesHeldNavigation() throws {
        let (router, rules) = try makeRouter()
        #expect(!router.push(.editor))
        router.dismiss()
        #expect(router.open(url: try link("myapp://editor/doc1")).status == .pending)
        #expect(router.pendingNavigation == nil)
        #expect(router.pendingLink != nil)
        rules.isLoggedIn = true
        router.factsDidChange()
        #expect(router.rootStack.path == [.editor, .detail(id: "doc1")])
        #expect(router.stacks.count == 1)
    }

    @Test("a navigation held after a link replaces it, and the link log says so")
    func heldNavigationReplacesHeldLink() throws {
        let (router, rules) = try makeRouter()
        #expect(router.open(url: try link("myapp://editor/doc1")).status == .pending)
        router.dismiss()
        #expect(!router.push(.editor))
        #expect(router.pendingLink == nil)
        #expect(router.deepLinks.linkLog.last?.reason == "replaced by the newer held navigation 'push editor'")
        rules.isLoggedIn = true
        router.factsDidChange()
        #expect(router.rootStack.path == [.editor])
    }
}
