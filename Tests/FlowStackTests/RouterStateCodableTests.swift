import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// Router state as a value: equality, Codable round trips and restoration.
@MainActor
struct RouterStateCodableTests {
    /// A root stack with a path, three presented stacks with paths, a dialog and a queue.
    func deepRouter() -> TestRouter {
        let router = TestRouter(root: .home, path: [.a, .detail(1), .detail(1)])
        router.sheet(.picker, path: [.b, .c], options: FlowPresentationOptions(allowsInteractiveDismiss: false))
        router.fullScreenCover(.editor, path: [.step(1)], options: FlowPresentationOptions(clearsNestedPresentationOnDismiss: false))
        router.sheet(.settings, path: [.step(2), .step(3), .step(2)])
        router.showGlobalDialog(TestDialog("visible"))
        router.showGlobalDialog(TestDialog("next"), policy: .queue)
        router.showGlobalDialog(TestDialog("last"), policy: .queue)
        return router
    }

    func roundTrip(_ state: FlowRouterState<TestRoute, TestDialog>) throws -> FlowRouterState<TestRoute, TestDialog> {
        let data = try JSONEncoder().encode(state)
        return try JSONDecoder().decode(FlowRouterState<TestRoute, TestDialog>.self, from: data)
    }

    @Test func aDeepNestedStateSurvivesACodableRoundTrip() throws {
        let router = deepRouter()
        let state = router.state
        let decoded = try roundTrip(state)
        #expect(decoded == state)
        #expect(decoded.stacks.count == 4)
        #expect(decoded.stacks.map(\.path) == router.stacks.map(\.path))
        #expect(decoded.stacks.map { $0.navigationPath.map(\.id) } == router.stacks.map { $0.navigationPath.map(\.id) })
        #expect(decoded.stacks.map(\.options) == router.stacks.map(\.options))
        #expect(decoded.stacks.map(\.style) == [.root, .sheet, .fullScreenCover, .sheet])
        #expect(decoded.globalDialog == TestDialog("visible"))
        #expect(decoded.dialogQueue == [TestDialog("next"), TestDialog("last")])
        #expect(decoded.rootID == router.rootID)
    }

    @Test func aRestoredRouterContinuesToWork() throws {
        let original = deepRouter()
        let restored = try TestRouter(state: try roundTrip(original.state))
        #expect(restored.state == original.state)
        #expect(restored.queuedGlobalDialogCount == 2)
        #expect(restored.push(.detail(1)))
        #expect(restored.activeStack.path == [.step(2), .step(3), .step(2), .detail(1)])
        #expect(restored.popTo(.step(2), match: .inclusive))
        #expect(restored.activeStack.path == [.step(2), .step(3)])
        #expect(restored.sheet(.picker, path: [.a]))
        #expect(Set(restored.allScreenIDs).count == restored.allScreenIDs.count)
        #expect(Set(restored.stacks.map(\.id)).count == restored.stacks.count)
        #expect(restored.dismiss(.stack(restored.stacks[2].id)))
        // The cover does not clear nested presentations: only it goes.
        #expect(restored.stacks.map(\.root) == [.home, .picker, .settings, .picker])
        restored.hideGlobalDialog()
        #expect(restored.globalDialog == TestDialog("next"))
        #expect(restored.dismissAll())
        #expect(restored.rootStack.path == [.a, .detail(1), .detail(1)])
    }

    @Test func restoreReplacesTheStateOfALiveRouter() throws {
        let source = deepRouter()
        let router = TestRouter(root: .splash)
        router.push(.a)
        let recorder = RouterEventRecorder(router)
        try router.restore(source.state)
        #expect(router.state == source.state)
        #expect(router.history.count == 1)
        #expect(recorder.restoredCount == 1)
        #expect(router.topRoute == .step(2))
    }

    @Test func restoreRejectsMalformedStatesAndKeepsTheRouter() {
        let router = TestRouter(root: .home, path: [.a])
        let before = router.state
        let root = FlowStackState<TestRoute>(root: .home)
        let sheet = FlowStackState<TestRoute>(root: .picker, style: .sheet)
        let node = FlowRouteNode(route: TestRoute.a)
        let duplicateNode = FlowStackState<TestRoute>(
            id: UUID(), rootID: UUID(), root: .home, nodes: [node, node], style: .root, options: .init()
        )
        let sharedID = UUID()
        let duplicateStack = FlowStackState<TestRoute>(id: sharedID, rootID: sharedID, root: .home)
        let malformed: [(FlowRouterState<TestRoute, TestDialog>, String)] = [
            (FlowRouterState(stacks: [], rootID: UUID()), "at least the root stack"),
            (FlowRouterState(stacks: [sheet], rootID: UUID()), "first stack must have style .root"),
            (FlowRouterState(stacks: [root, root], rootID: UUID()), "only the first stack"),
            (FlowRouterState(stacks: [duplicateNode], rootID: UUID()), "appears twice"),
            (FlowRouterState(stacks: [duplicateStack], rootID: UUID()), "appears twice"),
            (FlowRouterState(stacks: [root, FlowStackState(id: root.id, root: .picker, style: .sheet)], rootID: UUID()), "appears twice"),
        ]
        for (state, message) in malformed {
            #expect(state.problem?.contains(message) == true)
            #expect(throws: FlowStateError.self) { try router.restore(state) }
            #expect(throws: FlowStateError.self) { _ = try TestRouter(state: state) }
        }
        #expect(router.state == before)
        #expect(FlowRouterState<TestRoute, TestDialog>(stacks: [root], rootID: UUID()).problem == nil)
    }

    @Test func statesCompareByValue() {
        let router = deepRouter()
        let first = router.state
        #expect(first == router.state)
        router.push(.a)
        #expect(first != router.state)
        router.pop()
        #expect(first == router.state)
        router.push(.a)
        router.replaceCurrent(with: .a)
        router.pop()
        router.hideGlobalDialog()
        #expect(first != router.state)
        var other = first
        other.rootID = UUID()
        #expect(other != first)
    }

    @Test func stacksCompareNodeIdentitiesAndRoutes() {
        let id = UUID(), rootID = UUID()
        let nodes = [FlowRouteNode(route: TestRoute.a), FlowRouteNode(route: TestRoute.b)]
        let first = FlowStackState(id: id, rootID: rootID, root: TestRoute.home, nodes: nodes, style: .root, options: .init())
        let same = FlowStackState(id: id, rootID: rootID, root: TestRoute.home, nodes: nodes, style: .root, options: .init())
        let renewed = FlowStackState(id: id, rootID: rootID, root: TestRoute.home, nodes: [nodes[0], FlowRouteNode(route: .b)], style: .root, options: .init())
        let shorter = FlowStackState(id: id, rootID: rootID, root: TestRoute.home, nodes: [nodes[0]], style: .root, options: .init())
        #expect(first == same)
        #expect(first.hashValue == same.hashValue)
        #expect(first != renewed)
        #expect(first != shorter)
        #expect(Set([first, same, renewed]).count == 2)
    }

    @Test func aStackEncodesEveryIdentity() throws {
        let stack = FlowStackState<TestRoute>(root: .picker, path: [.a, .a], style: .fullScreenCover,
                                              options: FlowPresentationOptions(allowsInteractiveDismiss: false))
        let decoded = try JSONDecoder().decode(FlowStackState<TestRoute>.self, from: JSONEncoder().encode(stack))
        #expect(decoded == stack)
        #expect(decoded.navigationPath.map(\.id) == stack.navigationPath.map(\.id))
        #expect(decoded.topRoute == .a)
        #expect(decoded.routes == [.picker, .a, .a])
    }

    @Test func nodesCompareByIdentityOnly() {
        let id = UUID()
        #expect(FlowRouteNode(id: id, route: TestRoute.a) == FlowRouteNode(id: id, route: TestRoute.b))
        #expect(FlowRouteNode(route: TestRoute.a) != FlowRouteNode(route: TestRoute.a))
    }

    @Test func operationsAndCommandsAreCodable() throws {
        let commands: [FlowCommand<TestRoute>] = [
            FlowCommand(.setRoot(.home), path: [.a], refreshIfSameRoute: false),
            FlowCommand.pushMany([.a, .b], target: .root)!,
            FlowCommand(.present(.picker, style: .fullScreenCover), path: [.c], options: FlowPresentationOptions(allowsInteractiveDismiss: false)),
            FlowCommand(.popTo(.detail(2), match: .inclusive, target: .stack(UUID()))),
            FlowCommand(.replacePath(root: .home, path: [.a], target: .active)),
            FlowCommand(.dismissAll),
        ]
        let decoded = try JSONDecoder().decode([FlowCommand<TestRoute>].self, from: JSONEncoder().encode(commands))
        #expect(decoded == commands)
    }
}
