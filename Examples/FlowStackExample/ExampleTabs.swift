#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)
import FlowStack

/// The example's tabs: home, the projects and the profile, each with its own stack, as
/// `Scripts/routes.lua` declares them. Home starts on the splash screen and the launch screens
/// replace its root; the other two wait for a sign-in (`Scripts/rules/10-auth.lua`). The names
/// are the raw values (`FlowTab`): what rules and flows call them.
enum ExampleTab: String, FlowTab, CaseIterable {
    case home, projects, profile

    /// The tab item's title.
    var title: String {
        switch self {
        case .home: "Home"
        case .projects: "Projects"
        case .profile: "Profile"
        }
    }

    /// The tab item's SF Symbol.
    var symbol: String {
        switch self {
        case .home: "house"
        case .projects: "folder"
        case .profile: "person.crop.circle"
        }
    }
}

/// The whole navigation UI: one `FlowTabView` with the example's style and dialog. A tap on a
/// tab is `router.selectTab`; a tap on the selected one pops it to its root.
struct ExampleTabsRootView: View {
    /// The app's router (`ExampleRouterFactory.makeRouter()`).
    @ObservedObject var router: AppRouter

    var body: some View {
        FlowTabView(router: router, tabs: ExampleTab.allCases, style: .example) { tab in
            Label(tab.title, systemImage: tab.symbol)
        } root: { route in
            ExampleScreen(route: route, router: router)
        } destination: { route in
            ExampleScreen(route: route, router: router)
        } dialog: { dialog in
            AnyView(AppDialogView(dialog: dialog, onDelete: { router.pop() }))
        }
    }
}

#endif
