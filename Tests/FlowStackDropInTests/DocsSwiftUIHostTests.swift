// docs/swiftui-host.md's tabs section, checked through the public API an app has with
// `import FlowStack` (and SwiftUI, or its Linux stand-in).
import FlowStack
import Foundation
import Testing
#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIn
#endif

private enum AppRoute: Hashable, Codable, FlowRouteConvertible {
    case feedHome, searchHome, profileHome, post
}

private enum HostTab: String, FlowTab, CaseIterable { case feed, search, profile }

@Suite("docs/swiftui-host.md")
@MainActor
struct DocsSwiftUIHostTests {
    @Test("FlowTabView(router:tabs:label:root:destination:) over FlowRouter(tabs:selected:)")
    func tabView() {
        let router = FlowRouter<AppRoute, String>(
            tabs: [HostTab.feed: .feedHome, .search: .searchHome, .profile: .profileHome], selected: .search)
        let view = FlowTabView(router: router, tabs: HostTab.allCases, label: { tab in Text(tab.rawValue) },
                               root: { route in Text("\(route)") }, destination: { route in Text("\(route)") })
        _ = view
        #expect(router.selectedTabName == "search")
        #expect(router.selectedTab(as: HostTab.self) == .search)
        #expect(router.tabs.count == 3)
        #expect(router.stack(ofTab: "profile")?.root == .profileHome)
        #expect(HostTab(flowTabName: "feed") == .feed && HostTab.profile.flowTabName == "profile")
    }

    @Test("the Swift guard does not see tab selections; guardTabSelection does, and a tap on the selected tab pops it")
    func tabSelectionChecks() {
        let router = FlowRouter<AppRoute, String>(tabs: [HostTab.feed: .feedHome, .search: .searchHome, .profile: .profileHome])
        var seen: [FlowOperation<AppRoute>] = []
        router.guardOperation = { operation in seen.append(operation); return true }
        router.guardTabSelection = { name in name != "profile" }
        #expect(!router.selectTab(HostTab.profile))
        #expect(router.selectedTab(as: HostTab.self) == .feed)
        #expect(router.history.last?.command?.tab == "profile")
        #expect(router.history.last?.command?.operation == .popToRoot(target: .root))
        #expect(router.selectTab(HostTab.search))
        #expect(seen.isEmpty)

        router.push(.post)
        #expect(router.selectTab(HostTab.search))
        #expect(router.activeStack.path.isEmpty)
    }

    @Test("FlowRouterState encodes the tabs and the selected tab; FlowRouter(state:) and restore bring them back")
    func tabsEncode() throws {
        let router = FlowRouter<AppRoute, String>(tabs: [HostTab.feed: .feedHome, .search: .searchHome, .profile: .profileHome])
        router.selectTab(HostTab.profile)
        router.push(.post)
        let data = try JSONEncoder().encode(router.state)
        let decoded = try JSONDecoder().decode(FlowRouterState<AppRoute, String>.self, from: data)
        let restored = try FlowRouter<AppRoute, String>(state: decoded)
        #expect(restored.selectedTab(as: HostTab.self) == .profile)
        #expect(restored.stack(ofTab: "profile")?.path == [.post])
        let other = FlowRouter<AppRoute, String>(tabs: [HostTab.feed: .feedHome, .search: .searchHome, .profile: .profileHome])
        try other.restore(decoded)
        #expect(other.selectedTabName == "profile")
    }
}
