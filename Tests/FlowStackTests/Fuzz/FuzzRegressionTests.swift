import FlowStackCore
import Foundation
import Testing

/// Bugs the fuzzer found, pinned as plain tests.
@Suite("Router fuzzing: regressions")
@MainActor
struct FuzzRegressionTests {
    /// A rule that navigates while deciding is refused; the refusal must not count as a failed
    /// step of the transaction the decided request belongs to.
    @Test func aRuleThatNavigatesWhileDecidingDoesNotFailTheTransaction() {
        final class Reentrant: FlowRulesHook {
            weak var router: FuzzRouter?
            var refused: [FlowOperationStatus] = []
            var generation: Int { 1 }
            func decide(_ request: FlowRuleRequest) -> FlowRuleDecision {
                if let router { refused.append(router.perform(FlowCommand(.push(.login, target: .active))).status) }
                return .allow
            }
        }
        let router = FuzzRouter(root: .home)
        let hook = Reentrant()
        hook.router = router
        router.installRules(hook)
        let result = router.transaction { router in
            router.replaceCurrent(with: .d)
            router.replacePath(root: .a, path: [.c, .c, .home])
        }
        #expect(result.isCommitted)
        #expect(result.steps.map(\.status) == [.applied, .applied])
        #expect(hook.refused == [.failed, .failed])
        #expect(router.stacks[0].routes == [.a, .c, .c, .home])
        #expect(router.history.map(\.status) == [.applied, .applied])
    }

    /// The same bug as the fuzzer reported it, replayed through the fuzz executor.
    @Test func theShrunkSequenceOfTheReentrantTransactionBugPasses() {
        let steps: [FuzzStep] = [
            .transaction([
                .action(.replaceCurrent(.d, .active), condition: nil, rules: [.reenter]),
                .action(.replacePath(.a, path: [.c, .c, .home], .active), condition: nil, rules: []),
            ], throwing: false),
        ]
        #expect(FuzzExecutor().run(steps) == nil)
    }
}
