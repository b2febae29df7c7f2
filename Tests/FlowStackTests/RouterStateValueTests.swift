import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// The router's state as a value, without a router: `validate` and `apply` are pure functions
/// of it, the dialog changes and the history entries too.
struct RouterStateValueTests {
    typealias State = FlowRouterState<TestRoute, TestDialog>

    @Test func validateNamesWhatCannotRunAndChangesNothing() {
        var state = State(root: .home)
        let copy = state
        let refusals = [
            state.validate(FlowCommand(.pop(count: 1, target: .active)))?.0,
            state.validate(FlowCommand(.dismiss(target: .active)))?.0,
            state.validate(FlowCommand(.push(.a, target: .stack(UUID()))))?.0,
            state.validate(FlowCommand(.popTo(.b, match: .exclusive, target: .root)))?.0,
            state.validate(FlowCommand(.present(.a, style: .root)))?.0,
            state.validate(FlowCommand(.push(.a, target: .active)))?.0,
        ]
        #expect(refusals == [.nothingToPop, .nothingToDismiss, .stackNotFound, .routeNotFound, .failed, nil])
        #expect(state == copy)
        #expect(state.nextSequence == copy.nextSequence)
    }

    @Test func applyChangesOnlyTheCopyItRunsOn() {
        let original = State(root: .home)
        var state = original
        state.apply(FlowCommand(.push(.a, target: .active)))
        state.apply(FlowCommand(.present(.settings, style: .sheet), path: [.b]))
        state.apply(FlowCommand(.push(.c, target: .root)))
        #expect(state.stacks.map(\.routes) == [[.home, .a, .c], [.settings, .b]])
        #expect(original.stacks.map(\.routes) == [[.home]])
        #expect(state != original)
        // Every screen and stack got an identity of its own.
        let ids = state.stacks.flatMap { [$0.id, $0.rootID] + $0.navigationPath.map(\.id) }
        #expect(Set(ids).count == ids.count)
        state.apply(FlowCommand(.pop(count: 2, target: .active)))
        #expect(state.stacks.map(\.routes) == [[.home, .a, .c]])
        #expect(state.history.isEmpty)
    }

    @Test func setRootOfTheSameRouteRefreshesOrKeepsIdentities() {
        var state = State(root: .home)
        state.apply(FlowCommand(.push(.a, target: .active)))
        let (rootID, screenID) = (state.rootID, state.stacks[0].navigationPath[0].id)
        state.apply(FlowCommand(.setRoot(.home), path: [.a, .b], refreshIfSameRoute: false))
        #expect(state.rootID == rootID)
        #expect(state.stacks[0].navigationPath.first?.id == screenID)
        state.apply(FlowCommand(.setRoot(.home)))
        #expect(state.rootID != rootID)
        #expect(state.stacks[0].path.isEmpty)
    }

    @Test func dialogsFollowTheirPolicyOnTheValue() {
        var state = State(root: .home)
        let shown = [
            state.showDialog(TestDialog("a"), policy: .queue),
            state.showDialog(TestDialog("b"), policy: .queue),
            state.showDialog(TestDialog("c"), policy: .ignoreIfVisible),
            state.showDialog(TestDialog("d"), policy: .replaceKeepingQueue),
        ]
        #expect(shown == [true, true, false, true])
        #expect(state.globalDialog == TestDialog("d"))
        #expect(state.dialogQueue == [TestDialog("b")])
        let hid = state.hideDialog()
        #expect(hid)
        #expect(state.globalDialog == TestDialog("b"))
        let cleared = [state.clearDialogs(), state.clearDialogs(), state.hideDialog()]
        #expect(cleared == [true, false, false])
    }

    @Test func entriesAreNumberedAndHoldTheStacksAfter() {
        var state = State(root: .home)
        let before = state.stacks
        state.apply(FlowCommand(.push(.a, target: .active)))
        let first = state.entry(.navigation(FlowCommand(.push(.a, target: .active))), source: .code, status: .applied,
                                reason: nil, generation: 0, previous: before)
        let second = state.entry(.dialog(state.dialogChange(.clear, dialog: nil)), source: .code, status: .ignored,
                                 reason: nil, generation: 0, previous: state.stacks)
        #expect(first.sequence == 1)
        #expect(second.sequence == 2)
        #expect(first.previousStacks == before)
        #expect(first.newStacks == state.stacks)
        #expect(first.id != second.id)
    }

    @Test func equalityAndCodingCoverWhatIsShownNotTheBookkeeping() throws {
        var state = State(root: .home)
        state.apply(FlowCommand(.push(.a, target: .active)))
        var other = state
        _ = other.entry(.dialog(other.dialogChange(.clear, dialog: nil)), source: .code, status: .ignored,
                        reason: nil, generation: 0, previous: other.stacks)
        #expect(other == state)
        let decoded = try JSONDecoder().decode(State.self, from: JSONEncoder().encode(state))
        #expect(decoded == state)
        #expect(decoded.history.isEmpty)
    }
}

/// A full history drops its oldest entries and keeps every other entry's stacks.
@MainActor
struct RouterHistoryBoundTests {
    @Test func aFullHistoryKeepsEveryEntrysStacks() {
        let router = TestRouter(root: .home)
        router.maximumOperationHistoryCount = 4
        for round in 0..<10 {
            router.push(.detail(round))
            if round % 3 == 0 { router.pop() }
        }
        let entries = Array(router.history)
        #expect(entries.count == 4)
        for (older, newer) in zip(entries, entries.dropFirst()) {
            #expect(newer.previousStacks == older.newStacks)
        }
        #expect(entries.allSatisfy { !$0.previousStacks.isEmpty && !$0.newStacks.isEmpty })
        #expect(entries.last?.newStacks == router.stacks)
        #expect(router.stacks[0].path == [.detail(1), .detail(2), .detail(4), .detail(5), .detail(7), .detail(8)])
    }
}
