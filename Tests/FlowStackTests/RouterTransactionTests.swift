import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// Transactions: all-or-nothing groups of actions.
@MainActor
struct RouterTransactionTests {
    struct BodyError: Error {}

    @Test func aTransactionWhoseStepsAllApplyCommits() {
        let router = TestRouter(root: .home)
        let recorder = RouterEventRecorder(router)
        let result = router.transaction { router in
            router.push(.a)
            router.sheet(.picker, path: [.b])
            router.showGlobalDialog(TestDialog("d"))
        }
        #expect(result.isCommitted)
        #expect(result.failedStepIndex == nil)
        #expect(result.failure == nil)
        #expect(result.reason == nil)
        #expect(result.steps.map(\.status) == [.applied, .applied])
        #expect(router.rootStack.path == [.a])
        #expect(router.activeStack.path == [.b])
        #expect(router.globalDialog == TestDialog("d"))
        #expect(router.history.count == 3)
        #expect(router.history.map(\.sequence) == [1, 2, 3])
        #expect(recorder.transactions.map(\.committed) == [true])
        #expect(recorder.transactions.map(\.entryCount) == [3])
        #expect(recorder.recordedEntries.isEmpty)
    }

    @Test func aBlockedMiddleStepRollsEverythingBack() {
        let router = TestRouter(root: .home, path: [.a])
        router.showGlobalDialog(TestDialog("visible"))
        router.showGlobalDialog(TestDialog("queued"), policy: .queue)
        let before = router.state
        let historyBefore = router.history.count
        var laterConditionCalls = 0
        let result = router.transaction { router in
            router.setRoot(.home, path: [.b])
            router.showGlobalDialog(TestDialog("inside"))
            router.push(.paywall) { _, _ in false }
            router.push(.c) { _, _ in laterConditionCalls += 1; return true }
            router.sheet(.picker)
        }
        #expect(!result.isCommitted)
        #expect(result.failedStepIndex == 1)
        #expect(result.failure?.status == .blockedByPrecondition)
        #expect(result.steps.map(\.status) == [.rolledBack, .blockedByPrecondition, .rolledBack, .rolledBack])
        #expect(result.reason?.contains("step 2 of 4") == true)
        #expect(result.reason?.contains("push paywall") == true)
        #expect(result.reason?.contains("the call's condition returned false") == true)
        #expect(laterConditionCalls == 0)
        #expect(router.state == before)
        #expect(router.rootID == before.rootID)
        #expect(router.history.count == historyBefore + 1)
        let entry = router.history.last
        #expect(entry?.status == .blockedByPrecondition)
        #expect(entry?.reason?.hasPrefix("transaction rolled back at step 2") == true)
        #expect(entry?.newStacks == before.stacks)
    }

    @Test func aRuleRedirectInsideATransactionIsReturnedNotPerformed() {
        let router = TestRouter(root: .home)
        router.installRules(ScriptedRulesHook<TestRoute> { request in
            request.typedRoutes(as: TestRoute.self) == [.editor]
                ? ScriptedRulesHook<TestRoute>.redirect(to: FlowCommand(.present(.login, style: .sheet)), reason: "sign in")
                : .allow
        })
        let result = router.transaction { router in
            router.push(.a)
            router.push(.editor)
        }
        #expect(!result.isCommitted)
        #expect(result.failedStepIndex == 1)
        #expect(result.failure?.status == .redirected)
        #expect(result.pendingRedirect == FlowCommand(.present(.login, style: .sheet)))
        #expect(result.reason?.contains("sign in") == true)
        #expect(router.stacks.count == 1)
        #expect(router.rootStack.path.isEmpty)
        #expect(router.history.map(\.status) == [.redirected])
    }

    @Test func aThrowingBodyRollsBackAndRethrows() {
        let router = TestRouter(root: .home)
        let recorder = RouterEventRecorder(router)
        #expect(throws: BodyError.self) {
            try router.transaction { router in
                router.push(.a)
                router.showGlobalDialog(TestDialog("d"))
                throw BodyError()
            }
        }
        #expect(router.rootStack.path.isEmpty)
        #expect(router.globalDialog == nil)
        #expect(router.history.isEmpty)
        #expect(recorder.transactions.map(\.committed) == [false])
    }

    @Test func aNestedTransactionJoinsTheOuterOne() {
        let router = TestRouter(root: .home)
        var inner: FlowTransactionResult<TestRoute>?
        let outer = router.transaction { router in
            router.push(.a)
            inner = router.transaction { router in
                router.push(.b)
                router.popTo(.settings)
            }
            router.push(.c)
        }
        #expect(inner?.isCommitted == false)
        #expect(inner?.failedStepIndex == 1)
        #expect(inner?.steps.count == 2)
        #expect(!outer.isCommitted)
        #expect(outer.failedStepIndex == 2)
        #expect(outer.steps.map(\.status) == [.rolledBack, .rolledBack, .routeNotFound, .rolledBack])
        #expect(router.rootStack.path.isEmpty)

        let committed = router.transaction { router in
            router.push(.a)
            router.transaction { router in router.push(.b) }
        }
        #expect(committed.isCommitted)
        #expect(committed.steps.count == 2)
        #expect(router.rootStack.path == [.a, .b])
    }

    @Test func nothingToPopDoesNotFailATransaction() {
        let router = TestRouter(root: .home)
        let result = router.transaction { router in
            router.pop()
            router.dismiss()
            router.push(.a)
        }
        #expect(result.isCommitted)
        #expect(result.steps.map(\.status) == [.nothingToPop, .nothingToDismiss, .applied])
        #expect(router.rootStack.path == [.a])
    }

    @Test func aMissingStackFailsATransaction() {
        let router = TestRouter(root: .home)
        let result = router.transaction { router in
            router.push(.a)
            router.push(.b, on: .stack(UUID()))
        }
        #expect(!result.isCommitted)
        #expect(result.failure?.status == .stackNotFound)
        #expect(router.rootStack.path.isEmpty)
    }

    @Test func aGuardOrRuleBlockFailsATransaction() {
        let router = TestRouter(root: .home)
        router.guardOperation = { $0.kind != .dismissAll }
        let guarded = router.transaction { router in
            router.sheet(.picker)
            router.dismissAll()
        }
        #expect(guarded.failure?.status == .blockedByGuard)
        #expect(!router.isPresenting)

        router.guardOperation = nil
        router.installRules(ScriptedRulesHook<TestRoute> { request in
            request.kind == .fullScreenCover ? ScriptedRulesHook<TestRoute>.blocked("no covers") : .allow
        })
        let ruled = router.transaction { router in
            router.sheet(.picker)
            router.fullScreenCover(.editor)
        }
        #expect(ruled.failure?.reason == "no covers")
        #expect(!router.isPresenting)
    }

    @Test func setRootIdentityIsRestoredOnRollback() {
        let router = TestRouter(root: .home)
        let rootID = router.rootID
        let stackID = router.rootStack.id
        router.transaction { router in
            router.setRoot(.home)
            router.popTo(.a)
        }
        #expect(router.rootID == rootID)
        #expect(router.rootStack.id == stackID)
    }
}
