import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// The history: what each entry holds, its bound, and that recording shares structure.
@MainActor
struct RouterHistoryTests {
    @Test func entriesRecordTheirSource() {
        let router = TestRouter(root: .home)
        router.push(.a)
        router.perform(.push(.b, target: .active), source: .deeplink)
        router.userDidPop()
        #expect(router.history.map(\.source) == [.code, .deeplink, .user])
        #expect(router.operationHistory.map(\.source) == [.code, .deeplink, .user])
    }

    @Test func sequenceNumbersIncreaseAcrossNavigationAndDialogs() {
        let router = TestRouter(root: .home)
        router.push(.a)
        router.showGlobalDialog(TestDialog("d"))
        router.popTo(.c)
        router.hideGlobalDialog()
        router.pop()
        let sequences = router.history.map(\.sequence)
        #expect(sequences == [1, 2, 3, 4, 5])
        let result = router.perform(.push(.b, target: .active))
        #expect(result.sequence == 6)
        #expect(router.history.last?.sequence == 6)
    }

    @Test func anEntryHoldsTheStacksBeforeAndAfterAndATimestamp() {
        let router = TestRouter(root: .home, path: [.a])
        let before = router.stacks
        let start = Date()
        router.sheet(.picker, path: [.b])
        let entry = router.history[0]
        #expect(entry.previousStacks == before)
        #expect(entry.newStacks == router.stacks)
        #expect(entry.date >= start.addingTimeInterval(-1))
        #expect(entry.date <= Date())
        #expect(entry.status == .applied)
        #expect(entry.reason == nil)
        #expect(entry.operation == .present(.picker, style: .sheet))
        let dates = (0..<5).map { _ -> Date in router.push(.c); return router.history.last!.date }
        #expect(dates == dates.sorted())
    }

    @Test func theHistoryIsBoundedTo200ByDefaultKeepingTheNewest() {
        let router = TestRouter(root: .home)
        #expect(router.maximumOperationHistoryCount == 200)
        for n in 0..<250 { router.push(.step(n)) }
        #expect(router.history.count == 200)
        #expect(router.history.first?.operation == .push(.step(50), target: .active))
        #expect(router.history.last?.operation == .push(.step(249), target: .active))
        #expect(router.history.map(\.sequence) == Array(51...250))
        #expect(router.operationHistory.count == 200)
    }

    @Test func changingTheBoundAtRuntimeKeepsTheNewest() {
        let router = TestRouter(root: .home)
        router.maximumOperationHistoryCount = 5
        for n in 0..<8 { router.push(.step(n)) }
        #expect(router.history.map(\.sequence) == [4, 5, 6, 7, 8])
        router.maximumOperationHistoryCount = 3
        #expect(router.history.map(\.sequence) == [6, 7, 8])
        router.maximumOperationHistoryCount = 6
        for n in 8..<12 { router.push(.step(n)) }
        #expect(router.history.map(\.sequence) == [7, 8, 9, 10, 11, 12])
        router.maximumOperationHistoryCount = 1
        router.push(.a)
        #expect(router.history.map(\.sequence) == [13])
        #expect(router.operationHistory.map(\.operation) == [.push(.a, target: .active)])
    }

    @Test func aBoundOfZeroKeepsEverything() {
        let router = TestRouter(root: .home)
        router.maximumOperationHistoryCount = 2
        for n in 0..<3 { router.push(.step(n)) }
        router.maximumOperationHistoryCount = 0
        for n in 3..<503 { router.push(.step(n)) }
        #expect(router.history.count == 502)
        #expect(router.history.first?.sequence == 2)
        #expect(router.history.last?.sequence == 503)
    }

    @Test func clearingTheHistoryKeepsNumbering() {
        let router = TestRouter(root: .home)
        router.push(.a)
        router.showGlobalDialog(TestDialog("d"))
        router.clearOperationHistory()
        #expect(router.history.isEmpty)
        #expect(router.operationHistory.isEmpty)
        #expect(router.activeStack.path == [.a])
        router.push(.b)
        #expect(router.history.map(\.sequence) == [3])
    }

    @Test func blockedOperationsAreRecordedWithTheirOutcomeAndReason() {
        let router = TestRouter(root: .home)
        router.setDefaultPrecondition(for: .push) { operation, _ in operation.routes != [.paywall] }
        router.push(.settings)
        router.push(.paywall)
        router.popTo(.editor)
        #expect(router.operationHistory.map(\.status) == [.applied, .blockedByPrecondition, .routeNotFound])
        #expect(router.operationHistory[0].previousStacks[0].path.isEmpty)
        #expect(router.operationHistory[0].newStacks[0].path == [.settings])
        #expect(router.operationHistory[1].newStacks[0].path == [.settings])
        #expect(router.operationHistory.map { $0.reason != nil } == [false, true, true])
    }

    @Test func operationHistoryListsOneRecordPerPushedRoute() {
        let router = TestRouter(root: .home)
        router.showGlobalDialog(TestDialog("d"))
        router.push(contentsOf: [.a, .b], on: .root)
        router.pop()
        let records = router.operationHistory
        #expect(records.map(\.operation) == [.push(.a, target: .root), .push(.b, target: .root), .pop(count: 1, target: .active)])
        #expect(records[0].sequence == records[1].sequence)
        #expect(records[0].id == records[1].id)
        #expect(records[1].newStacks[0].path == [.a, .b])
        #expect(records[2].sequence == 3)
        #expect(router.history.count == 3)
    }

    @Test func operationRecordsCanBeBuiltAsInFlowStack() {
        let stacks = [FlowStackState<TestRoute>(root: .home)]
        let record = FlowOperationRecord(operation: .dismissAll, previousStacks: stacks, newStacks: stacks, outcome: .blockedByGuard)
        #expect(record.operation.kind == .dismissAll)
        #expect(record.outcome == .blockedByGuard)
        #expect(record.source == .code)
        #expect(record.reason == nil)
        #expect(record.sequence == 0)
        #expect(record.generation == 0)
        #expect(record.status.isBlocked)
        #expect(!record.status.isApplied)
    }

    @Test func recordingSharesThePathsOfConsecutiveSnapshots() {
        let router = TestRouter(root: .home)
        router.maximumOperationHistoryCount = 0
        for n in 0..<1_000 { router.push(.step(n)) }
        let entries = Array(router.history)
        let last = entries[entries.count - 1]
        let previous = entries[entries.count - 2]
        let currentTop = router.stacks[0].storage.top
        // The last entry's snapshot is the live path itself, not a copy.
        #expect(last.newStacks[0].storage.top === currentTop)
        // The state before the last push is the live path minus its top link.
        #expect(last.previousStacks[0].storage.top === currentTop?.parent)
        #expect(previous.newStacks[0].storage.top === last.previousStacks[0].storage.top)
        // The first entry's snapshot is the bottom link of the live path.
        var bottom = currentTop
        while let parent = bottom?.parent { bottom = parent }
        #expect(entries[0].newStacks[0].storage.top === bottom)
        #expect(last.newStacks[0].pathCount == 1_000)
    }

    @Test func snapshotsAfterAPopShareTheRemainingPath() {
        let router = TestRouter(root: .home)
        for n in 0..<1_000 { router.push(.step(n)) }
        let beforePop = router.stacks[0].storage.top
        router.pop(count: 10)
        let entry = router.history.last!
        #expect(entry.previousStacks[0].storage.top === beforePop)
        var link = beforePop
        for _ in 0..<10 { link = link?.parent }
        #expect(entry.newStacks[0].storage.top === link)
        #expect(router.stacks[0].storage.top === link)
    }

    @Test func aFullHistoryKeepsEveryEntrysStacksWhileRecordingReusesTheEvictedOnes() {
        let router = TestRouter(root: .home)
        router.maximumOperationHistoryCount = 3
        // Each step's stacks before and after, as the history must show them.
        var expected: [(before: [FlowStackState<TestRoute>], after: [FlowStackState<TestRoute>])] = []
        func step(_ action: () -> Void) {
            let before = router.stacks
            action()
            expected.append((before, router.stacks))
        }
        for n in 0..<12 {
            step { router.push(.step(n)) }
            step { router.sheet(.picker, path: [.a]) }
            step { router.showGlobalDialog(TestDialog("d\(n)")) }
            step { router.pop() }
            step { router.dismiss() }
            step { router.popToRoot() }
            step { router.pop() }  // nothing to pop: refused, recorded
            let kept = router.stacks
            step { router.push(.b) }
            #expect(kept != router.stacks, "a kept snapshot is not changed by the next navigation")
            #expect(kept.count == 1 && kept[0].path == [], "a kept snapshot keeps what it held")
            #expect(router.history.map(\.previousStacks) == expected.suffix(3).map(\.before))
            #expect(router.history.map(\.newStacks) == expected.suffix(3).map(\.after))
        }
        #expect(router.stacks == expected.last?.after)
    }

    @Test func aCopyOfTheHistoryIsNotChangedByLaterRecording() {
        let router = TestRouter(root: .home)
        router.maximumOperationHistoryCount = 2
        router.push(.a)
        router.push(.b)
        let saved = router.history
        let savedBefore = saved.map(\.previousStacks)
        let savedAfter = saved.map(\.newStacks)
        for n in 0..<5 { router.push(.step(n)) }
        #expect(saved.map(\.previousStacks) == savedBefore)
        #expect(saved.map(\.newStacks) == savedAfter)
        #expect(savedBefore.map { $0[0].path } == [[], [.a]])
        #expect(router.history.map(\.sequence) == [6, 7])
    }

    @Test func aTransactionOnAFullHistoryRecordsItsStepsWithTheirStacks() {
        let router = TestRouter(root: .home)
        router.maximumOperationHistoryCount = 2
        router.push(.a)
        router.push(.b)
        let before = router.stacks
        let oldest = router.history[0].previousStacks
        router.transaction { router in
            router.push(.c)
            // The steps are recorded when the transaction ends: the history is untouched.
            #expect(router.history[0].previousStacks == oldest)
            router.push(.settings)
        }
        #expect(router.history.map(\.sequence) == [3, 4])
        #expect(router.history[0].previousStacks == before)
        #expect(router.history[0].newStacks[0].path == [.a, .b, .c])
        #expect(router.history[1].previousStacks == router.history[0].newStacks)
        #expect(router.history[1].newStacks == router.stacks)
    }

    @Test func aVeryDeepPathIsReleasedWithoutOverflowingTheStack() {
        var router: TestRouter? = TestRouter(root: .home)
        for n in 0..<100_000 { router!.push(.step(n)) }
        #expect(router!.activeStack.pathCount == 100_000)
        weak var top: FlowPathLink<TestRoute>?
        top = router!.stacks[0].storage.top
        router = nil
        #expect(top == nil)

        var stack: FlowStackState<TestRoute>? = FlowStackState(root: .home, path: (0..<100_000).map { .step($0) })
        #expect(stack?.pathCount == 100_000)
        stack = nil
        #expect(stack == nil)
    }
}
