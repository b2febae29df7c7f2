import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// One-off conditions, default preconditions per kind, and the guard.
@MainActor
struct RouterPreconditionTests {
    @Test func aOneOffConditionReplacesADefaultThatBlocks() {
        let router = TestRouter(root: .home)
        router.setDefaultPrecondition(for: .push) { _, _ in false }
        let applied = router.push(.settings) { operation, previous in
            operation == .push(.settings, target: .active) && previous[0].root == .home
        }
        #expect(applied)
        #expect(router.activeStack.path == [.settings])
    }

    @Test func aOneOffConditionCanBlockWhenTheDefaultAllows() {
        let router = TestRouter(root: .home)
        var defaultCalls = 0
        router.setDefaultPrecondition(for: .present) { _, _ in defaultCalls += 1; return true }
        #expect(!router.sheet(.picker) { _, _ in false })
        #expect(!router.isPresenting)
        #expect(defaultCalls == 0)
        let entry = router.history.last
        #expect(entry?.status == .blockedByPrecondition)
        #expect(entry?.reason == "the call's condition returned false")
    }

    @Test func defaultPreconditionsApplyPerKind() {
        let router = TestRouter(root: .home)
        router.setDefaultPrecondition(for: .present) { _, _ in false }
        #expect(router.push(.settings))
        #expect(!router.sheet(.picker))
        #expect(!router.fullScreenCover(.editor))
        #expect(router.activeStack.path == [.settings])
        #expect(router.stacks.count == 1)
        #expect(router.history.last?.reason?.contains("present") == true)
    }

    @Test func everyKindUsesItsOwnDefault() {
        let router = TestRouter(root: .home, path: [.a, .b])
        router.sheet(.picker, path: [.c])
        var asked: [FlowOperationKind] = []
        for kind in FlowOperationKind.allCases {
            router.setDefaultPrecondition(for: kind) { operation, _ in
                asked.append(operation.kind)
                return false
            }
        }
        router.setRoot(.home)
        router.push(.a)
        router.pushRemovingPrevious(.a)
        router.replaceCurrent(with: .a)
        router.replacePath(root: .a)
        router.pop()
        router.popToRoot()
        router.popTo(.c)
        router.present(.a)
        router.dismiss()
        router.dismissAll()
        #expect(asked == FlowOperationKind.allCases)
        #expect(router.stacks.count == 2)
        #expect(router.navigationOutcomes.suffix(11).allSatisfy { $0 == .blockedByPrecondition })
    }

    @Test func removingAndClearingDefaults() async {
        let router = TestRouter(root: .home)
        router.setDefaultPrecondition(for: .push) { _, _ in false }
        router.setDefaultPrecondition(for: .present) { _, _ in false }
        router.setDefaultAsyncPrecondition(for: .push) { _, _ in false }
        router.setDefaultPrecondition(for: .push, nil)
        #expect(!router.sheet(.picker))
        #expect(router.push(.a))
        #expect(!(await router.pushAsync(.b)))

        router.clearDefaultPreconditions()
        #expect(router.sheet(.picker))
        #expect(await router.pushAsync(.b))
        #expect(router.activeStack.path == [.b])
    }

    @Test func theGuardRunsAfterThePreconditions() {
        let router = TestRouter(root: .home)
        var order: [String] = []
        router.setDefaultPrecondition(for: .push) { _, _ in order.append("default"); return true }
        router.guardOperation = { _ in order.append("guard"); return false }
        #expect(!router.push(.a))
        #expect(order == ["default", "guard"])
        #expect(router.history.last?.status == .blockedByGuard)
        #expect(router.history.last?.reason == "guardOperation returned false")

        order.removeAll()
        #expect(!router.push(.a) { _, _ in order.append("one-off"); return true })
        #expect(order == ["one-off", "guard"])
    }

    @Test func aBlockingPreconditionSkipsTheGuard() {
        let router = TestRouter(root: .home)
        var guardCalls = 0
        router.guardOperation = { _ in guardCalls += 1; return true }
        #expect(!router.push(.a) { _, _ in false })
        #expect(guardCalls == 0)
        #expect(router.history.last?.status == .blockedByPrecondition)
    }

    @Test func theGuardSeesTheOperation() {
        let router = TestRouter(root: .home, path: [.detail(1), .settings])
        router.guardOperation = { $0 != .popTo(.detail(1), match: .exclusive, target: .active) }
        #expect(!router.popTo(.detail(1)))
        #expect(router.activeStack.path == [.detail(1), .settings])
        #expect(router.popTo(.detail(1), match: .inclusive))
        #expect(router.activeStack.path.isEmpty)
    }

    @Test func conditionsReceiveTheStacksBeforeTheOperation() {
        let router = TestRouter(root: .home, path: [.a])
        router.sheet(.picker)
        var seen: [[FlowStackState<TestRoute>]] = []
        let expected = router.stacks
        router.setDefaultPrecondition(for: .dismiss) { _, previous in seen.append(previous); return true }
        router.dismiss()
        router.push(.b) { _, previous in seen.append(previous); return true }
        #expect(seen.count == 2)
        #expect(seen[0] == expected)
        #expect(seen[1] == [expected[0]])
    }

    @Test func aBlockedOperationLeavesTheStateAndRecordsIt() {
        let router = TestRouter(root: .home, path: [.a])
        let before = router.stacks
        router.guardOperation = { _ in false }
        #expect(!router.setRoot(.splash))
        #expect(router.stacks == before)
        let entry = router.history.last
        #expect(entry?.previousStacks == before)
        #expect(entry?.newStacks == before)
        #expect(entry?.status.isBlocked == true)
    }
}
