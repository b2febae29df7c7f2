import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// Operations, commands, outcomes and rule requests as values.
struct FlowOperationTests {
    let stackID = UUID()

    @Test func everyOperationHasItsKindTargetAndRoutes() {
        let cases: [(FlowOperation<TestRoute>, FlowOperationKind, FlowStackTarget?, [TestRoute])] = [
            (.setRoot(.home), .setRoot, nil, [.home]),
            (.push(.a, target: .root), .push, .root, [.a]),
            (.pushRemovingPrevious(.a, target: .active), .pushRemovingPrevious, .active, [.a]),
            (.replaceCurrent(.b, target: .stack(stackID)), .replaceCurrent, .stack(stackID), [.b]),
            (.replacePath(root: .home, path: [.a, .b], target: .active), .replacePath, .active, [.home, .a, .b]),
            (.pop(count: 2, target: .active), .pop, .active, []),
            (.popToRoot(target: .root), .popToRoot, .root, []),
            (.popTo(.c, match: .inclusive, target: .active), .popTo, .active, [.c]),
            (.present(.picker, style: .fullScreenCover), .present, nil, [.picker]),
            (.dismiss(target: .active), .dismiss, .active, []),
            (.dismissAll, .dismissAll, nil, []),
        ]
        for (operation, kind, target, routes) in cases {
            #expect(operation.kind == kind)
            #expect(operation.target == target)
            #expect(operation.routes == routes)
        }
        #expect(Set(cases.map(\.1)) == Set(FlowOperationKind.allCases))
    }

    @Test func commandsNameTheirKindAsRulesSeeIt() throws {
        #expect(FlowCommand<TestRoute>(.present(.picker, style: .sheet)).kindName == "sheet")
        #expect(FlowCommand<TestRoute>(.present(.picker, style: .fullScreenCover)).kindName == "fullScreenCover")
        #expect(FlowCommand<TestRoute>(.popToRoot(target: .active)).kindName == "popToRoot")
        let batch = try #require(FlowCommand<TestRoute>.pushMany([.a, .b], target: .root))
        #expect(batch.kindName == "pushMany")
        #expect(batch.routes == [.a, .b])
        #expect(batch.operations == [.push(.a, target: .root), .push(.b, target: .root)])
        #expect(batch.summary == "pushMany a, b")
        #expect(FlowCommand<TestRoute>(.dismissAll).summary == "dismissAll")
        #expect(FlowCommand<TestRoute>(.push(.detail(3), target: .active)).summary == "push detail(3)")
    }

    @Test func outcomesSayWhetherTheyAppliedOrWereBlocked() {
        let blocked: Set<FlowOperationStatus> = [.blockedByPrecondition, .blockedByGuard, .redirected, .failed]
        let all: [FlowOperationStatus] = [
            .applied, .blockedByPrecondition, .blockedByGuard, .redirected, .failed, .stackNotFound,
            .routeNotFound, .nothingToPop, .nothingToDismiss, .cancelled, .rolledBack, .ignored,
        ]
        for outcome in all {
            #expect(outcome.isApplied == (outcome == .applied))
            #expect(outcome.isBlocked == blocked.contains(outcome))
        }
    }

    @Test func resultsFollowTheirRedirectChain() {
        let applied = FlowOperationResult<TestRoute>(command: FlowCommand(.push(.c, target: .active)), status: .applied)
        let middle = FlowOperationResult<TestRoute>(command: FlowCommand(.push(.b, target: .active)), status: .redirected, redirect: applied)
        let first = FlowOperationResult<TestRoute>(command: FlowCommand(.push(.a, target: .active)), status: .redirected, redirect: middle)
        #expect(first.redirectApplied)
        #expect(first.redirect?.redirect == applied)
        #expect(!middle.isApplied)
        let blocked = FlowOperationResult<TestRoute>(command: FlowCommand(.push(.a, target: .active)), status: .redirected,
                                                     redirect: FlowOperationResult(command: FlowCommand(.dismissAll), status: .nothingToDismiss))
        #expect(!blocked.redirectApplied)
    }
}
