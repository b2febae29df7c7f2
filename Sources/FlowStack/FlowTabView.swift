#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)

/// The SwiftUI host of a tabbed `FlowRouter`: a `TabView` whose selection is the router's, a
/// `NavigationStack` per tab bound to that tab's path, and the presentations and the global
/// dialog above the tab bar.
///
/// ```swift
/// enum AppTab: String, FlowTab, CaseIterable { case feed, search, profile }
///
/// @StateObject private var router = FlowRouter<AppRoute, AppDialog>(
///     tabs: [AppTab.feed: .feedHome, .search: .searchHome, .profile: .profileHome])
///
/// FlowTabView(router: router, tabs: AppTab.allCases) { tab in
///     Label(tab.rawValue, systemImage: tab.symbol)
/// } root: { route in screen(for: route) } destination: { route in screen(for: route) }
/// ```
///
/// - A tap on a tab item is `router.selectTab(_:)`: the rules may refuse it (the tab bar then
///   stays on the selected tab) or answer it with a sheet; a tap on the selected tab's item
///   pops it to its root.
/// - The selected tab is drawn as `FlowStackView` draws its root stack (styles, gestures,
///   presentations, staged transitions: one presentation change per update); the other tabs
///   show their own stacks as they were left.
public struct FlowTabView<Tab: FlowTab, Route: Hashable, Dialog, Label: View, Root: View, Destination: View>: View {
    /// The router; every change redraws the view and may start a staged transition.
    @ObservedObject private var router: FlowRouter<Route, Dialog>
    /// What the view shows now, and the steps still to play.
    @StateObject private var host: FlowStagingHost<Route>
    /// The tabs in the order of the tab bar.
    private let tabs: [Tab]
    /// A tab's item in the tab bar.
    private let label: (Tab) -> Label
    /// The style and the view builders.
    private let content: FlowStackContent<Route, Dialog, Root, Destination>

    /// Creates the host of a tabbed `router`.
    ///
    /// - Parameters:
    ///   - router: The router to show, created with `FlowRouter(tabs:selected:)`.
    ///   - tabs: The tabs in the order of the tab bar (their names are the router's tabs).
    ///   - style: Screen defaults and the screen, stack and modal closures.
    ///   - label: A tab's item in the tab bar (`Label`, or `Text` and `Image`).
    ///   - root: The view of a stack's root screen (each tab's and each presented one's).
    ///   - destination: The view of a pushed screen.
    ///   - dialog: The global dialog's view (see `FlowStackView`).
    public init(
        router: FlowRouter<Route, Dialog>,
        tabs: [Tab],
        style: FlowNavigationStyle = .default,
        @ViewBuilder label: @escaping (Tab) -> Label,
        @ViewBuilder root: @escaping (Route) -> Root,
        @ViewBuilder destination: @escaping (Route) -> Destination,
        dialog: ((Binding<Dialog?>) -> AnyView)? = nil
    ) {
        precondition(!tabs.isEmpty, "FlowTabView(router:tabs:): pass the app's tabs, as in AppTab.allCases")
        self.router = router
        self.tabs = tabs
        self.label = label
        self._host = StateObject(wrappedValue: FlowStagingHost(launching: router.stacks))
        self.content = FlowStackContent(
            style: style, screenDefaults: style.screenDefaults,
            root: root, destination: destination, dialog: dialog
        )
    }

    /// The tab bar with a stack per tab, following the router.
    public var body: some View {
        TabView(selection: selection) {
            ForEach(tabs, id: \.self) { tab in
                tabContent(tab)
                    .tabItem { label(tab) }
                    .tag(tab)
            }
        }
        .background { content.dialogWindow(router) }
        .task(id: FlowFollowKey(stacks: router.stacks, wakeCount: host.wakeCount)) {
            await host.follow(router)
        }
    }

    /// The router's selected tab; a tap (also on the selected tab's item) is `selectTab`.
    private var selection: Binding<Tab> {
        let router = self.router
        let first = tabs[0]
        return Binding(
            get: { @MainActor in router.selectedTab(as: Tab.self) ?? first },
            set: { @MainActor tab in router.selectTab(tab) }
        )
    }

    /// A tab's stack: the selected one as the router shows it (with its presentations), the
    /// others as they were left.
    @ViewBuilder
    private func tabContent(_ tab: Tab) -> some View {
        if tab.flowTabName == router.selectedTabName, let rootStack = host.player.stack(at: 0) {
            FlowStackLayer(router: router, host: host, stackID: rootStack.id, content: content)
                .id(rootStack.id)
        } else if let stack = router.stack(ofTab: tab.flowTabName) {
            NavigationStack(path: .constant(stack.navigationPath)) {
                content.root(stack.root)
                    .id(stack.rootID)
                    .navigationDestination(for: FlowRouteNode<Route>.self) { node in
                        content.destination(node.route)
                    }
            }
        }
    }
}

#endif
