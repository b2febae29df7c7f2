import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// `setRoot(_:refreshIfSameRoute:)` and the identities the SwiftUI host keys its views on.
@MainActor
struct RouterSetRootIdentityTests {
    @Test func withoutRefreshTheSameRouteKeepsTheStackAndSharedScreensAndDropsPresentations() {
        let router = TestRouter(root: .home, path: [.a, .b])
        router.sheet(.picker)
        let old = router.rootStack
        let rootID = router.rootID
        #expect(router.setRoot(.home, path: [.a, .c], refreshIfSameRoute: false))
        #expect(router.stacks.count == 1)
        #expect(router.rootStack.id == old.id && router.rootStack.rootID == old.rootID)
        #expect(router.rootID == rootID)
        #expect(router.rootStack.path == [.a, .c])
        #expect(router.rootStack.navigationPath[0].id == old.navigationPath[0].id, "the shared screen keeps its identity")
        #expect(router.rootStack.navigationPath[1].id != old.navigationPath[1].id)
        #expect(router.history.last?.outcome == .applied)
    }

    @Test func withoutRefreshTheStagedPlanIsPathsAndDismissalsNotANewRoot() {
        let router = TestRouter(root: .home, path: [.a])
        router.sheet(.picker)
        let shown = router.stacks
        router.setRoot(.home, refreshIfSameRoute: false)
        let steps = router.stagingPlan(from: shown)
        #expect(steps.map(\.kind) == [.dismiss, .updatePaths])
        #expect(!steps.contains { $0.kind == .replaceRoot })
    }

    @Test func refreshOrAnotherRouteStillMintsANewStack() {
        let router = TestRouter(root: .home)
        let first = router.rootStack
        let firstRootID = router.rootID
        router.setRoot(.home)
        #expect(router.rootStack.id != first.id && router.rootStack.rootID != first.rootID)
        #expect(router.rootID != firstRootID, "refresh of the same route")
        let second = router.rootStack
        let secondRootID = router.rootID
        router.setRoot(.a, refreshIfSameRoute: false)
        #expect(router.rootStack.id != second.id, "another route is a new root stack")
        #expect(router.rootID == secondRootID)
        #expect(router.stagingPlan(from: [second]).map(\.kind) == [.replaceRoot])
    }
}
