// docs/migrating.md: what behaves differently from the original FlowStack, checked through the
// public API an app has with `import FlowStack`.
import FlowStack
import Foundation
import Testing

private enum AppRoute: Hashable, Codable, FlowRouteConvertible {
    case home, projects, settings
    case detail(id: String)
}

@Suite("docs/migrating.md")
@MainActor
struct DocsMigratingTests {
    @Test("no-ops are not applied: they return false and record their status")
    func noOps() {
        let router = FlowRouter<AppRoute, String>(root: .home)
        #expect(!router.pop())
        #expect(router.history.last?.status == .nothingToPop)
        #expect(!router.dismiss())
        #expect(router.history.last?.status == .nothingToDismiss)
        #expect(!router.push(.projects, on: .stack(UUID())))
        #expect(router.history.last?.status == .stackNotFound)
        #expect(router.operationHistory.allSatisfy { $0.outcome == .blockedByGuard })
    }

    @Test("requestGlobalDialog says whether the dialog was shown; the history records it either way")
    func requestGlobalDialog() {
        let router = FlowRouter<AppRoute, String>(root: .home)
        #expect(router.requestGlobalDialog("a", policy: .ignoreIfVisible))
        #expect(router.history.last?.status == .applied)
        #expect(!router.requestGlobalDialog("b", policy: .ignoreIfVisible))
        #expect(router.history.last?.status == .ignored)
        #expect(router.requestGlobalDialog("c", policy: .queue))
        #expect(router.globalDialog == "a")
    }

    @Test("FlowNavigationStyle.Context is the core's FlowStyleContext")
    func styleContext() {
        #expect(FlowNavigationStyle.Context.self == FlowStyleContext.self)
    }

    @Test("operationHistory is computed from history: a push(contentsOf:) batch is one record per route, dialogs are left out")
    func operationHistory() {
        let router = FlowRouter<AppRoute, String>(root: .home)
        router.push(contentsOf: [.projects, .detail(id: "1")])
        router.showGlobalDialog("a")
        #expect(router.history.count == 2)
        #expect(router.operationHistory.map(\.operation) == [.push(.projects, target: .active), .push(.detail(id: "1"), target: .active)])
    }

    @Test("the held deep link is router state, shared by a second center, not encoded")
    func heldLinkIsState() throws {
        let router = FlowRouter<AppRoute, String>(root: .home)
        router.guardOperation = { _ in false }
        var links = FlowDeepLinks<AppRoute>()
        try links.add("/projects") { _, _ in [.push(.projects)] }
        router.deepLinks.resolver = links
        let url = try #require(URL(string: "myapp://projects"))
        #expect(router.open(url: url).status == .pending)
        #expect(router.pendingLink == url)
        #expect(router.deepLinks.heldLink?.url == url)
        #expect(router.state.pendingLink?.url == url)
        let second = FlowDeepLinkCenter(router: router, resolver: links)
        #expect(second.pendingLink == url)

        let data = try JSONEncoder().encode(router.state)
        let restored = try FlowRouter<AppRoute, String>(state: JSONDecoder().decode(FlowRouterState<AppRoute, String>.self, from: data))
        #expect(restored.pendingLink == nil)
    }
}
