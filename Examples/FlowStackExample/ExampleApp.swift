#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)
import FlowStack

/// The example app.
///
/// No `@main`: this target is a library that the package builds to type-check the example on
/// every platform. An Xcode app target uses it by marking this type `@main` (or by wrapping
/// `ExampleTabsRootView` in its own `App`).
struct FlowStackExampleApp: App {
    /// The app's one router, created once.
    @StateObject private var router = ExampleRouterFactory.makeRouter()

    var body: some Scene {
        WindowGroup {
            ExampleTabsRootView(router: router)
        }
    }
}

/// Makes the example's router.
@MainActor
enum ExampleRouterFactory {
    /// The rules engine of `Scripts/`, kept for the app's lifetime so facts can change and the
    /// rules can reload.
    static var engine: FlowRulesEngine<AppRoute>?

    /// A router with the manifest's tab bar (home starts on the splash screen), the Swift style
    /// rules the example uses and the Lua rules of `Scripts/rules/` installed: from the source
    /// folder and watched in a DEBUG Simulator build, bundled and not watched on a device
    /// (`ExampleRulesLocation`).
    static func makeRouter(rules location: ExampleRulesLocation? = .current()) -> AppRouter {
        let router = AppRouter(tabs: [ExampleTab.home: .splash, .projects: .projects, .profile: .profile])
        if let location {
            do {
                let scripts = location.scripts
                let manifest = try FlowManifest.load(contentsOf: scripts.appendingPathComponent("routes.lua"))
                let engine = try FlowRulesEngine<AppRoute>(
                    directory: scripts.appendingPathComponent("rules"),
                    configuration: FlowRulesConfiguration(manifest: manifest)
                )
                engine.registerAsyncHost("requestPhotoAccess") { _ in
                    // A real app asks the photo library; the example grants access.
                    [.bool(true)]
                }
                engine.registerAsyncHost("confirmDiscard") { _ in
                    // A real app asks "Discard changes?" in an alert; the example keeps them.
                    [.bool(false)]
                }
                engine.onFactsChange = { [weak router] in router?.objectWillChange.send() }
                engine.install(into: router)
                if location.isWatched {
                    try engine.startWatching()
                }
                Self.engine = engine
            } catch {
                print("FlowStackExample: the rules did not load, navigation runs without them: \(error)")
            }
        }
        router.addStyleRule(.screen) { context in
            guard case .detail(let id)? = context.screenRoute(as: AppRoute.self) else { return nil }
            return FlowStyleAttributes(navigationBarHidden: false, navigationTitle: "Project \(id)")
        }
        router.addStyleRule(.modal) { context in
            guard context.presentationStyle == .sheet else { return nil }
            return FlowStyleAttributes(presentationDragIndicator: .visible, presentationDetents: [.medium, .large])
        }
        return router
    }
}

#endif
