#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)
import FlowStackUI

/// The example app.
///
/// No `@main`: this target is a library that the package builds to type-check the example on
/// every platform. An Xcode app target uses it by marking this type `@main` (or by wrapping
/// `ExampleRootView` in its own `App`).
struct FlowStackExampleApp: App {
    /// The app's one router, created once.
    @StateObject private var router = ExampleRouterFactory.makeRouter()

    var body: some Scene {
        WindowGroup {
            ExampleRootView(router: router)
        }
    }
}

/// The whole navigation UI: one `FlowStackView` with the example's style and dialog.
struct ExampleRootView: View {
    /// The app's router.
    @ObservedObject var router: AppRouter

    var body: some View {
        FlowStackView(router: router, style: .example) { route in
            ExampleScreen(route: route, router: router)
        } destination: { route in
            ExampleScreen(route: route, router: router)
        } dialog: { dialog in
            AnyView(AppDialogView(dialog: dialog, onDelete: { router.pop() }))
        }
    }
}

/// Makes the example's router.
@MainActor
enum ExampleRouterFactory {
    /// A router at the manifest's root, with the Swift style rules the example uses.
    ///
    /// The Lua rules of `Scripts/rules/` are not loaded here yet: the engine's API is not final.
    static func makeRouter() -> AppRouter {
        let router = AppRouter(root: .splash)
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
