import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// Observing a router without SwiftUI: `observe(_:)` and `didApplyOperation`.
@MainActor
struct RouterObservationTests {
    @Test func observersHearEveryRecordedEntryAfterTheChange() {
        let router = TestRouter(root: .home)
        var topsWhenHeard: [TestRoute] = []
        router.observe { _ in topsWhenHeard.append(router.topRoute) }
        let recorder = RouterEventRecorder(router)
        router.push(.a)
        router.showGlobalDialog(TestDialog("d"))
        router.popTo(.c)
        router.sheet(.picker)
        #expect(recorder.recordedEntries.map(\.sequence) == [1, 2, 3, 4])
        #expect(recorder.recordedEntries.map(\.status) == [.applied, .applied, .routeNotFound, .applied])
        #expect(topsWhenHeard == [.a, .a, .a, .picker])
    }

    @Test func removedObserversHearNothing() {
        let router = TestRouter(root: .home)
        var first = 0, second = 0
        let registration = router.observe { _ in first += 1 }
        router.observe { _ in second += 1 }
        router.push(.a)
        router.removeObserver(registration)
        router.push(.b)
        #expect(first == 1)
        #expect(second == 2)
    }

    @Test func observersHearRestoreClearAndTransactions() throws {
        let router = TestRouter(root: .home)
        let recorder = RouterEventRecorder(router)
        router.clearOperationHistory()
        try router.restore(router.state)
        router.transaction { router in router.push(.a) }
        router.transaction { router in router.popTo(.b) }
        #expect(recorder.historyClearedCount == 1)
        #expect(recorder.restoredCount == 1)
        #expect(recorder.transactions.map(\.committed) == [true, false])
        #expect(recorder.transactions.map(\.entryCount) == [1, 1])
        #expect(recorder.events.count == 4)
    }

    @Test func didApplyOperationHearsOnlyAppliedOperations() {
        let router = TestRouter(root: .home)
        var heard: [FlowOperation<TestRoute>] = []
        var depths: [Int] = []
        router.didApplyOperation = { operation, stacks in
            heard.append(operation)
            depths.append(stacks[0].pathCount)
        }
        router.push(.settings)
        router.push(.b) { _, _ in false }
        router.popTo(.c)
        router.push(contentsOf: [.a, .b], on: .root)
        router.sheet(.picker)
        #expect(heard == [
            .push(.settings, target: .active), .push(.a, target: .root), .push(.b, target: .root),
            .present(.picker, style: .sheet),
        ])
        #expect(depths == [1, 3, 3, 3])
    }

    @Test func didApplyOperationHearsTransactionsOnlyWhenTheyCommit() {
        let router = TestRouter(root: .home)
        var heard: [FlowOperation<TestRoute>] = []
        var depths: [Int] = []
        router.didApplyOperation = { operation, stacks in
            heard.append(operation)
            depths.append(stacks[0].pathCount)
        }
        let rolledBack = router.transaction { router in
            router.push(.a)
            router.push(.b) { _, _ in false }
        }
        #expect(!rolledBack.isCommitted)
        #expect(heard.isEmpty)
        let committed = router.transaction { router in
            router.push(.a)
            router.push(contentsOf: [.b, .c])
            #expect(heard.isEmpty, "nothing is heard before the transaction commits")
        }
        #expect(committed.isCommitted)
        #expect(heard == [.push(.a, target: .active), .push(.b, target: .active), .push(.c, target: .active)])
        #expect(depths == [1, 3, 3])
    }

    @Test func theRouterIsAFlowRouting() {
        func describe<R: FlowRouting>(_ router: R) -> (Int, UUID) { (router.stacks.count, router.rootID) }
        let router = TestRouter(root: .home)
        router.sheet(.picker)
        let (count, rootID) = describe(router)
        #expect(count == 2)
        #expect(rootID == router.rootID)
    }
}
