import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// Popping: pop(count:), popToRoot and popTo(_:match:), on the root and presented stacks.
@MainActor
struct RouterPopTests {
    @Test func popRemovesTheTopScreen() {
        let router = TestRouter(root: .home, path: [.detail(1), .detail(2)])
        #expect(router.pop())
        #expect(router.activeStack.path == [.detail(1)])
        #expect(router.topRoute == .detail(1))
    }

    @Test func popOnTheRootStackClampsAndIgnoresTheExcess() {
        let router = TestRouter(root: .home, path: [.a, .b])
        let result = router.perform(.pop(count: 5, target: .active))
        #expect(result.status == .applied)
        #expect(router.rootStack.path.isEmpty)
        #expect(router.stacks.count == 1)
        #expect(router.rootStack.root == .home)
    }

    @Test func popOnTheRootScreenOfTheRootStackIsNothingToPop() {
        let router = TestRouter(root: .home)
        #expect(!router.pop())
        #expect(router.history.last?.status == .nothingToPop)
        #expect(router.history.last?.reason?.isEmpty == false)
        #expect(router.rootStack.root == .home)
    }

    @Test func popPastAPresentedStacksPathDismissesIt() {
        let router = TestRouter(root: .home, path: [.a])
        router.sheet(.picker, path: [.b, .c])
        #expect(router.pop(count: 2))
        #expect(router.stacks.count == 2)
        #expect(router.activeStack.path.isEmpty)
        #expect(router.pop())
        #expect(router.stacks.count == 1)
        #expect(router.rootStack.path == [.a])

        router.sheet(.picker, path: [.b])
        #expect(router.pop(count: 3))
        #expect(router.stacks.count == 1)
        #expect(router.rootStack.path == [.a])
    }

    @Test func popPastAMiddleStackDismissesItAndTheStacksAboveIt() {
        let router = TestRouter(root: .home)
        router.sheet(.picker, path: [.a])
        let middle = router.activeStack.id
        router.fullScreenCover(.editor)
        #expect(router.pop(count: 2, on: .stack(middle)))
        #expect(router.stacks.count == 1)
    }

    @Test func popPastAMiddleStackThatKeepsNestedPresentationsDismissesOnlyIt() {
        let router = TestRouter(root: .home)
        router.sheet(.picker, path: [.a], options: FlowPresentationOptions(clearsNestedPresentationOnDismiss: false))
        let middle = router.activeStack.id
        router.fullScreenCover(.editor, path: [.b])
        #expect(router.pop(count: 2, on: .stack(middle)))
        #expect(router.stacks.map(\.root) == [.home, .editor])
        #expect(router.activeStack.path == [.b])
    }

    @Test func popOfZeroOrNegativeCountDoesNothing() {
        let router = TestRouter(root: .home, path: [.a])
        let before = router.state
        #expect(router.pop(count: 0))
        #expect(router.pop(count: -2))
        #expect(router.state == before)
        #expect(router.history.isEmpty)
    }

    @Test func popToRootClearsOnlyTheTargetStack() {
        let router = TestRouter(root: .home, path: [.a, .b])
        router.sheet(.picker, path: [.c, .c])
        #expect(router.popToRoot())
        #expect(router.activeStack.path.isEmpty)
        #expect(router.rootStack.path == [.a, .b])
        #expect(router.popToRoot(on: .root))
        #expect(router.rootStack.path.isEmpty)
        #expect(!router.popToRoot())
        #expect(router.history.last?.status == .nothingToPop)
    }

    @Test func popToExclusiveKeepsTheLastOccurrence() {
        let router = TestRouter(root: .home, path: [.a, .b, .a, .c])
        let keptIDs = router.activeStack.navigationPath.prefix(3).map(\.id)
        #expect(router.popTo(.a))
        #expect(router.activeStack.path == [.a, .b, .a])
        #expect(router.activeStack.navigationPath.map(\.id) == keptIDs)
    }

    @Test func popToInclusiveRemovesTheLastOccurrenceToo() {
        let router = TestRouter(root: .home, path: [.a, .b, .a, .c])
        #expect(router.popTo(.a, match: .inclusive))
        #expect(router.activeStack.path == [.a, .b])
        #expect(router.popTo(.a, match: .inclusive))
        #expect(router.activeStack.path.isEmpty)
    }

    @Test func popToAMissingRouteIsRecordedAsRouteNotFound() {
        let router = TestRouter(root: .home, path: [.detail(1), .settings])
        #expect(!router.popTo(.detail(99)))
        #expect(router.activeStack.path == [.detail(1), .settings])
        let entry = router.history.last
        #expect(entry?.status == .routeNotFound)
        #expect(entry?.reason?.contains("detail(99)") == true)
        #expect(router.operationHistory.last?.operation == .popTo(.detail(99), match: .exclusive, target: .active))

        // The root is not in the path, as in FlowStack; the reason says what goes back to it.
        #expect(!router.popTo(.home))
        #expect(router.history.last?.status == .routeNotFound)
        #expect(router.history.last?.reason?.contains("the stack's root screen, not in its path: popToRoot goes back to it") == true)
    }
}
