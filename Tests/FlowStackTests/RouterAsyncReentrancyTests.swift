import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// Requests made from inside an async turn: nested ones run in the turn, rules cannot navigate.
@MainActor
struct RouterAsyncReentrancyTests {
    @Test func anAsyncConditionMayAwaitAnotherAsyncAction() async {
        let router = TestRouter(root: .home)
        let pushed = await valueWithin(seconds: 10) {
            await router.pushAsync(.editor, on: .root) { _, _ in
                await router.sheetAsync(.login)
            }
        }
        #expect(pushed == true)
        #expect(router.stacks.map(\.root) == [.home, .login])
        #expect(router.rootStack.path == [.editor])
        #expect(router.navigationOutcomes == [.applied, .applied])
        #expect(router.operationHistory.map(\.operation.kind) == [.present, .push])
    }

    @Test func anAsyncConditionMayUseQueued() async {
        let router = TestRouter(root: .home)
        let pushed = await valueWithin(seconds: 10) {
            await router.pushAsync(.b) { _, _ in
                await router.queued { router.push(.a) }
            }
        }
        #expect(pushed == true)
        #expect(router.rootStack.path == [.a, .b])
    }

    @Test func aTaskStartedInsideAConditionWaitsForItsOwnTurn() async {
        let router = TestRouter(root: .home)
        var spawned: Task<Bool, Never>?
        let pushed = await router.pushAsync(.a) { _, _ in
            spawned = Task { await router.pushAsync(.c) }
            for _ in 0..<20 { await Task.yield() }
            return true
        }
        #expect(pushed)
        #expect(await spawned?.value == true)
        #expect(router.rootStack.path == [.a, .c])
    }

    @Test func anAsyncRuleCannotNavigate() async {
        let router = TestRouter(root: .home)
        let hook = ScriptedRulesHook<TestRoute>()
        var nestedAsync: FlowOperationResult<TestRoute>?
        var nestedSync: FlowOperationResult<TestRoute>?
        hook.asyncDecider = { request in
            if request.typedRoutes(as: TestRoute.self) == [.a] {
                nestedAsync = await router.performAsync(FlowCommand(.push(.b, target: .active)))
                nestedSync = router.perform(.push(.c, target: .active))
            }
            return .allow
        }
        router.installRules(hook)
        #expect(await valueWithin(seconds: 10) { await router.pushAsync(.a) } == true)
        #expect(nestedAsync?.status == .failed)
        #expect(nestedSync?.status == .failed)
        #expect(nestedSync?.reason?.contains("rule was deciding") == true)
        #expect(router.rootStack.path == [.a])
        #expect(router.history.count == 1)
        #expect(router.push(.b))
        #expect(router.rootStack.path == [.a, .b])
    }

    @Test func otherCodeMayNavigateWhileAnAsyncRuleIsSuspended() async {
        let router = TestRouter(root: .home)
        let gate = AsyncGate()
        let hook = ScriptedRulesHook<TestRoute>()
        hook.asyncDecider = { request in
            if request.typedRoutes(as: TestRoute.self) == [.a] { await gate.wait() }
            return .allow
        }
        router.installRules(hook)
        let pending = Task { await router.pushAsync(.a) }
        await yieldUntil { gate.waitingCount == 1 }
        #expect(router.push(.b))
        gate.open()
        #expect(await pending.value)
        #expect(router.rootStack.path == [.b, .a])
    }
}
