import Foundation
import Testing
@testable import FlowStack

enum R: String, Hashable, Codable { case splash, home, a, b, c, login, paywall, editor }

@MainActor
struct RouterSmokeTests {
    @Test func pushPopAndHistory() {
        let router = FlowRouter<R, String>(root: .splash)
        #expect(router.push(.a))
        #expect(router.push(.a))
        #expect(router.stacks[0].path == [.a, .a])
        #expect(router.stacks[0].navigationPath[0].id != router.stacks[0].navigationPath[1].id)
        #expect(router.pop())
        #expect(router.topRoute == .a)
        #expect(router.operationHistory.map(\.outcome) == [.applied, .applied, .applied])
    }

    @Test func redirectThroughHook() {
        final class Hook: FlowRulesHook {
            typealias Route = R
            var generation: Int { 3 }
            func decide(_ request: FlowRuleRequest<R>) -> FlowRuleDecision<R> {
                if request.command.routes.contains(.editor) {
                    return .redirect(FlowCommand(.present(.paywall, style: .fullScreenCover)), FlowRuleBlock(stage: .guard, reason: "premium required"))
                }
                return .allow
            }
        }
        let router = FlowRouter<R, String>(root: .home)
        router.rulesHook = Hook()
        let result = router.perform(.push(.editor, target: .active))
        #expect(result.outcome == .redirected)
        #expect(result.redirect?.isApplied == true)
        #expect(router.topRoute == .paywall)
        #expect(router.history.last?.generation == 3)
    }
}
