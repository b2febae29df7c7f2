import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// What the `$` publishers send: a value only when it changed (`FlowPublishedChanges` decides
/// for every platform; the Combine subjects send what it reports).
@MainActor
struct RouterPublishedChangesTests {
    typealias Values = FlowPublishedChanges<TestRoute, TestDialog>.Values

    /// The router and the changes each step made, in order.
    func changes(_ steps: [(TestRouter) -> Void], router: TestRouter = TestRouter(root: .home)) -> [Values] {
        var tracker = FlowPublishedChanges(router)
        return steps.map { step in
            step(router)
            return tracker.update(router)
        }
    }

    @Test func aPushChangesTheStacksAndTheOperationHistoryOnly() {
        #expect(changes([{ $0.push(.a) }]) == [[.stacks, .operationHistory]])
    }

    @Test func aBlockedOrRefusedOperationChangesOnlyTheOperationHistory() {
        let seen = changes([
            { $0.push(.a, condition: { _, _ in false }) },
            { $0.pop() },
            { $0.dismiss() },
        ])
        #expect(seen == [[.operationHistory], [.operationHistory], [.operationHistory]])
    }

    @Test func aDialogChangesOnlyTheDialogAndAnIgnoredOneNothing() {
        let seen = changes([
            { $0.showGlobalDialog(TestDialog("a")) },
            { $0.showGlobalDialog(TestDialog("b"), policy: .ignoreIfVisible) },
            { $0.showGlobalDialog(TestDialog("c"), policy: .queue) },
            { $0.hideGlobalDialog() },
            { $0.showGlobalDialog(TestDialog("c"), policy: .replace) },
        ])
        #expect(seen == [[.globalDialog], [], [], [.globalDialog], []])
    }

    @Test func aRefreshedRootChangesTheRootIdentity() {
        let seen = changes([
            { $0.setRoot(.home) },
            { $0.setRoot(.home, refreshIfSameRoute: false) },
        ])
        #expect(seen == [[.stacks, .rootID, .operationHistory], [.operationHistory]])
    }

    @Test func clearingTheHistoryChangesItOnceAndARestoreOfTheSameStateNothing() throws {
        let router = TestRouter(root: .home)
        router.push(.a)
        let state = router.state
        let seen = changes([
            { $0.clearOperationHistory() },
            { $0.clearOperationHistory() },
            { try? $0.restore(state) },
        ], router: router)
        #expect(seen == [[.operationHistory], [], []])
    }

    @Test func dialogEntriesThatEvictNoNavigationLeaveTheOperationHistory() {
        let router = TestRouter(root: .home)
        router.maximumOperationHistoryCount = 3
        router.push(.a)
        let seen = changes([
            { $0.showGlobalDialog(TestDialog("a")) },
            { $0.hideGlobalDialog() },
            { $0.showGlobalDialog(TestDialog("b")) },
        ], router: router)
        // The third dialog entry evicts the push: the navigation records are gone.
        #expect(seen == [[.globalDialog], [.globalDialog], [.globalDialog, .operationHistory]])
    }
}
