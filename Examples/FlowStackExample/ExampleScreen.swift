#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)
import FlowStack

/// The view of each route (root screens and pushed ones alike).
struct ExampleScreen: View {
    /// The route to show.
    let route: AppRoute
    /// The app's router, which every button calls.
    let router: AppRouter

    var body: some View {
        switch route {
        case .splash: SplashScreen(router: router)
        case .onboarding: OnboardingScreen(router: router)
        case .login: LoginScreen(router: router)
        case .home: HomeScreen(router: router)
        case .projects: ProjectsScreen(router: router)
        case .detail(let id): ProjectDetailScreen(id: id, router: router)
        case .editor(let id): EditorScreen(id: id, router: router)
        case .settings: SettingsScreen(router: router)
        case .profile: ProfileScreen(router: router)
        case .paywall: PaywallScreen(router: router)
        case .photoPicker: PhotoPickerScreen(router: router)
        case .permissionDenied: PermissionDeniedScreen(router: router)
        case .promo: PromoScreen(router: router)
        }
    }
}

/// The layout every example screen uses: a title, a message and a column of actions.
struct ExampleScreenLayout<Actions: View>: View {
    /// The screen's title.
    let title: String
    /// What the screen is for.
    let message: String
    /// The screen's buttons.
    let actions: Actions

    /// Creates the layout.
    init(title: String, message: String, @ViewBuilder actions: () -> Actions) {
        self.title = title
        self.message = message
        self.actions = actions()
    }

    var body: some View {
        ScrollView {
            VStack(alignment: .leading, spacing: 16) {
                Text(title).font(.largeTitle)
                Text(message).foregroundColor(.secondary)
                Divider()
                actions
            }
            .padding()
        }
    }
}

#endif
