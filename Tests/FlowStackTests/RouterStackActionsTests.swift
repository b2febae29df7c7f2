import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// Stack actions on the root and presented stacks: setRoot, push and replace.
@MainActor
struct RouterStackActionsTests {
    @Test func newRouterHasOnlyTheRootStack() {
        let router = TestRouter(root: .splash)
        #expect(router.stacks.count == 1)
        #expect(router.rootStack.root == .splash)
        #expect(router.rootStack.style == .root)
        #expect(router.rootStack.isRoot)
        #expect(router.activeStack.id == router.rootStack.id)
        #expect(router.activeIndex == 0)
        #expect(router.topRoute == .splash)
        #expect(!router.isPresenting)
        #expect(router.history.isEmpty)
    }

    @Test func initWithPathGivesEachScreenItsOwnIdentity() {
        let router = TestRouter(root: .home, path: [.a, .a, .b])
        #expect(router.rootStack.path == [.a, .a, .b])
        #expect(Set(router.allScreenIDs).count == 4)
        #expect(router.topRoute == .b)
    }

    @Test func sameRoutePushedTwiceIsTwoScreens() {
        let router = TestRouter(root: .home)
        #expect(router.push(.detail(1)))
        #expect(router.push(.detail(1)))
        let nodes = router.activeStack.navigationPath
        #expect(router.activeStack.path == [.detail(1), .detail(1)])
        #expect(nodes.count == 2)
        #expect(nodes[0].id != nodes[1].id)
        #expect(nodes[0] != nodes[1])
        #expect(router.activeStack.topID == nodes[1].id)
    }

    @Test func setRootOfSameRouteRefreshesEveryIdentityAndDropsPresentations() {
        let router = TestRouter(root: .home)
        router.push(.a)
        router.sheet(.picker, path: [.b])
        router.fullScreenCover(.editor)
        let oldStackID = router.rootStack.id
        let oldStackRootID = router.rootStack.rootID
        let oldRouterRootID = router.rootID

        #expect(router.setRoot(.home))

        #expect(router.stacks.count == 1)
        #expect(router.rootStack.root == .home)
        #expect(router.rootStack.path.isEmpty)
        #expect(router.rootStack.id != oldStackID)
        #expect(router.rootStack.rootID != oldStackRootID)
        #expect(router.rootID != oldRouterRootID)
        #expect(!router.isPresenting)
    }

    @Test func setRootOfAnotherRouteKeepsRouterRootIDButReplacesTheStack() {
        let router = TestRouter(root: .splash)
        let oldRouterRootID = router.rootID
        let oldStackID = router.rootStack.id
        router.setRoot(.home)
        #expect(router.rootStack.root == .home)
        #expect(router.rootID == oldRouterRootID)
        #expect(router.rootStack.id != oldStackID)
    }

    @Test func setRootWithoutRefreshKeepsEveryRootIdentityForTheSameRoute() {
        let router = TestRouter(root: .home)
        let oldRouterRootID = router.rootID
        let oldStack = router.rootStack
        router.setRoot(.home, refreshIfSameRoute: false)
        #expect(router.rootID == oldRouterRootID)
        #expect(router.rootStack.id == oldStack.id)
        #expect(router.rootStack.rootID == oldStack.rootID)
    }

    @Test func setRootWithPathBuildsTheNewRootStack() {
        let router = TestRouter(root: .home, path: [.a])
        router.sheet(.picker)
        let oldRouterRootID = router.rootID
        router.setRoot(.home, path: [.detail(1), .detail(1)])
        #expect(router.stacks.count == 1)
        #expect(router.rootStack.path == [.detail(1), .detail(1)])
        #expect(Set(router.allScreenIDs).count == 3)
        #expect(router.rootID != oldRouterRootID)
        #expect(router.history.last?.command?.path == [.detail(1), .detail(1)])
    }

    @Test func pushContentsOfPushesInOrderAsOneRequest() {
        let router = TestRouter(root: .home)
        let entriesBefore = router.history.count
        #expect(router.push(contentsOf: [.a, .b, .a]))
        #expect(router.activeStack.path == [.a, .b, .a])
        #expect(Set(router.activeStack.navigationPath.map(\.id)).count == 3)
        #expect(router.history.count == entriesBefore + 1)
        #expect(router.history.last?.command?.kindName == "pushMany")
        #expect(router.history.last?.command?.batch == [.a, .b, .a])
    }

    @Test func pushContentsOfIsAllOrNothingWithACondition() {
        let router = TestRouter(root: .home, path: [.a])
        var seen: [FlowOperation<TestRoute>] = []
        let applied = router.push(contentsOf: [.b, .paywall, .c]) { operation, _ in
            seen.append(operation)
            return operation != .push(.paywall, target: .active)
        }
        #expect(!applied)
        #expect(router.activeStack.path == [.a])
        #expect(seen == [.push(.b, target: .active), .push(.paywall, target: .active)])
        #expect(router.history.last?.status == .blockedByPrecondition)
    }

    @Test func pushContentsOfIsAllOrNothingWithDefaultsAndGuard() {
        let router = TestRouter(root: .home)
        router.setDefaultPrecondition(for: .push) { operation, _ in operation.routes != [.login] }
        #expect(!router.push(contentsOf: [.a, .login]))
        #expect(router.activeStack.path.isEmpty)

        router.clearDefaultPreconditions()
        router.guardOperation = { $0.routes != [.c] }
        #expect(!router.push(contentsOf: [.a, .b, .c]))
        #expect(router.activeStack.path.isEmpty)
        #expect(router.navigationOutcomes == [.blockedByPrecondition, .blockedByGuard])
    }

    @Test func pushContentsOfAnEmptyListChangesAndRecordsNothing() {
        let router = TestRouter(root: .home, path: [.a])
        let before = router.state
        #expect(router.push(contentsOf: []))
        #expect(router.state == before)
        #expect(router.history.isEmpty)
        #expect(FlowCommand<TestRoute>.pushMany([]) == nil)
    }

    @Test func pushRemovingPreviousOnAPathReplacesTheScreenBelow() {
        let router = TestRouter(root: .home, path: [.a, .b])
        let keptID = router.activeStack.navigationPath[0].id
        let rootID = router.activeStack.rootID
        #expect(router.pushRemovingPrevious(.c))
        #expect(router.activeStack.path == [.a, .c])
        #expect(router.activeStack.navigationPath[0].id == keptID)
        #expect(router.activeStack.rootID == rootID)
        #expect(router.topRoute == .c)
    }

    @Test func pushRemovingPreviousOnTheRootScreenReplacesTheRoot() {
        let router = TestRouter(root: .home)
        let stackID = router.rootStack.id
        let oldRootID = router.rootStack.rootID
        #expect(router.pushRemovingPrevious(.settings))
        #expect(router.rootStack.root == .settings)
        #expect(router.rootStack.path.isEmpty)
        #expect(router.rootStack.rootID != oldRootID)
        #expect(router.rootStack.id == stackID)
    }

    @Test func pushRemovingPreviousTargetsAPresentedStack() {
        let router = TestRouter(root: .home, path: [.a])
        router.sheet(.picker, path: [.b])
        let sheetID = router.activeStack.id
        router.fullScreenCover(.editor)
        #expect(router.pushRemovingPrevious(.c, on: .stack(sheetID)))
        #expect(router.stacks[1].path == [.c])
        #expect(router.rootStack.path == [.a])
        #expect(router.activeStack.path.isEmpty)
    }

    @Test func replaceCurrentOnAPathGivesTheScreenANewIdentity() {
        let router = TestRouter(root: .home, path: [.a, .detail(1)])
        let oldTop = router.activeStack.topID
        let belowID = router.activeStack.navigationPath[0].id
        #expect(router.replaceCurrent(with: .detail(1)))
        #expect(router.activeStack.path == [.a, .detail(1)])
        #expect(router.activeStack.topID != oldTop)
        #expect(router.activeStack.navigationPath[0].id == belowID)
        #expect(router.replaceCurrent(with: .settings))
        #expect(router.activeStack.path == [.a, .settings])
    }

    @Test func replaceCurrentOnTheRootScreenReplacesTheRootWithAFreshIdentity() {
        let router = TestRouter(root: .home)
        let oldRootID = router.rootStack.rootID
        #expect(router.replaceCurrent(with: .home))
        #expect(router.rootStack.root == .home)
        #expect(router.rootStack.rootID != oldRootID)
        #expect(router.replaceCurrent(with: .settings))
        #expect(router.rootStack.root == .settings)
        #expect(router.rootStack.path.isEmpty)
    }

    @Test func replacePathReplacesRootAndPathOfTheTarget() {
        let router = TestRouter(root: .splash, path: [.a])
        let oldRootID = router.rootStack.rootID
        #expect(router.replacePath(root: .home, path: [.detail(10), .settings]))
        #expect(router.rootStack.root == .home)
        #expect(router.rootStack.path == [.detail(10), .settings])
        #expect(router.rootStack.rootID != oldRootID)
        #expect(router.topRoute == .settings)

        let sameRootID = router.rootStack.rootID
        #expect(router.replacePath(root: .home, path: [.detail(10)]))
        #expect(router.rootStack.rootID != sameRootID)

        router.sheet(.picker)
        #expect(router.replacePath(root: .editor, path: [.a], on: .root))
        #expect(router.rootStack.root == .editor)
        #expect(router.rootStack.path == [.a])
        #expect(router.activeStack.root == .picker)
    }
}
