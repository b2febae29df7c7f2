import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// What the person already did: recorded with source `user`, never blocked.
@MainActor
struct RouterUserGestureTests {
    /// A router whose every check blocks: preconditions, guard and rules.
    func lockedRouter(root: TestRoute = .home, path: [TestRoute] = []) -> (TestRouter, ScriptedRulesHook<TestRoute>) {
        let router = TestRouter(root: root, path: path)
        for kind in FlowOperationKind.allCases {
            router.setDefaultPrecondition(for: kind) { _, _ in false }
        }
        router.guardOperation = { _ in false }
        let hook = ScriptedRulesHook<TestRoute> { _ in ScriptedRulesHook<TestRoute>.blocked("locked") }
        router.installRules(hook)
        return (router, hook)
    }

    @Test func aBackSwipeAppliesEvenWhenEveryCheckWouldBlock() {
        let (router, hook) = lockedRouter(path: [.a, .b, .c])
        #expect(!router.pop())
        let result = router.userDidPop(toDepth: 1, in: router.rootStack.id)
        #expect(result?.isApplied == true)
        #expect(result?.operation == .pop(count: 2, target: .stack(router.rootStack.id)))
        #expect(router.rootStack.path == [.a])
        #expect(router.history.last?.source == .user)
        #expect(router.history.last?.status == .applied)
        #expect(hook.requests.isEmpty)
    }

    @Test func userDidPopWithNothingToPopReturnsNil() {
        let router = TestRouter(root: .home, path: [.a])
        #expect(router.userDidPop(toDepth: 1, in: router.rootStack.id) == nil)
        #expect(router.userDidPop(toDepth: 3, in: router.rootStack.id) == nil)
        #expect(router.userDidPop(toDepth: 0, in: UUID()) == nil)
        #expect(router.history.isEmpty)
        #expect(router.userDidPop()?.isApplied == true)
        #expect(router.userDidPop() == nil)
        #expect(router.rootStack.path.isEmpty)
    }

    @Test func userDidPopOnceActsOnTheFrontMostStack() {
        let (router, _) = lockedRouter(path: [.a])
        router.guardOperation = nil
        router.removeRules()
        router.present(.picker, path: [.b, .c]) { _, _ in true }
        router.guardOperation = { _ in false }
        #expect(router.userDidPop()?.isApplied == true)
        #expect(router.activeStack.path == [.b])
        #expect(router.rootStack.path == [.a])
    }

    @Test func aSwipeDownAppliesEvenWhenEveryCheckWouldBlock() {
        let router = TestRouter(root: .home)
        router.sheet(.picker)
        let sheetID = router.activeStack.id
        router.fullScreenCover(.editor)
        router.guardOperation = { _ in false }
        router.installRules(ScriptedRulesHook<TestRoute> { _ in ScriptedRulesHook<TestRoute>.blocked("locked") })
        #expect(!router.dismiss())
        let result = router.userDidDismiss(stackID: sheetID)
        #expect(result?.isApplied == true)
        #expect(router.stacks.count == 1)
        #expect(router.history.last?.source == .user)
        #expect(router.userDidDismiss(stackID: router.rootStack.id) == nil)
        #expect(router.userDidDismiss() == nil)
    }

    @Test func userDidDismissWithoutAnIDDismissesTheFrontMostStack() {
        let router = TestRouter(root: .home)
        router.sheet(.picker)
        router.sheet(.editor)
        router.guardOperation = { _ in false }
        #expect(router.userDidDismiss()?.isApplied == true)
        #expect(router.stacks.map(\.root) == [.home, .picker])
    }

    @Test func userDidChangePathReportsAPop() {
        let (router, _) = lockedRouter(path: [.a, .b, .c])
        let id = router.rootStack.id
        let keptID = router.rootStack.navigationPath[0].id
        let result = router.userDidChangePath([.a], in: id)
        #expect(result?.isApplied == true)
        #expect(result?.operation == .pop(count: 2, target: .stack(id)))
        #expect(router.rootStack.path == [.a])
        #expect(router.rootStack.navigationPath[0].id == keptID)
        #expect(router.history.last?.source == .user)
    }

    @Test func userDidChangePathReportsAPush() {
        let (router, _) = lockedRouter(path: [.a])
        let id = router.rootStack.id
        let keptID = router.rootStack.navigationPath[0].id
        let result = router.userDidChangePath([.a, .b, .c], in: id)
        #expect(result?.isApplied == true)
        #expect(result?.command.kindName == "pushMany")
        #expect(result?.command.batch == [.b, .c])
        #expect(router.rootStack.path == [.a, .b, .c])
        #expect(router.rootStack.navigationPath[0].id == keptID)
    }

    @Test func userDidChangePathReportsAReplacementKeepingTheRoot() {
        let (router, _) = lockedRouter(path: [.a, .b])
        let id = router.rootStack.id
        let rootID = router.rootStack.rootID
        let keptID = router.rootStack.navigationPath[0].id
        let result = router.userDidChangePath([.a, .c], in: id)
        #expect(result?.isApplied == true)
        #expect(result?.operation.kind == .replacePath)
        #expect(router.rootStack.root == .home)
        #expect(router.rootStack.path == [.a, .c])
        #expect(router.rootStack.rootID == rootID)
        #expect(router.rootStack.navigationPath[0].id == keptID)
    }

    @Test func userDidChangePathWithNoChangeOrAnUnknownStackReturnsNil() {
        let router = TestRouter(root: .home, path: [.a])
        #expect(router.userDidChangePath([.a], in: router.rootStack.id) == nil)
        #expect(router.userDidChangePath([], in: UUID()) == nil)
        #expect(router.history.isEmpty)
    }

    @Test func performWithUserSourceSkipsTheChecks() {
        let (router, hook) = lockedRouter()
        let result = router.perform(.present(.picker, style: .sheet), source: .user)
        #expect(result.isApplied)
        #expect(hook.requests.isEmpty)
        #expect(router.isPresenting)
    }
}
