// The FlowStack DocC article "Getting Started", its snippets as an app writes them with
// `import FlowStack` (and SwiftUI, or its Linux stand-in): they must compile unchanged and do what
// the article says. Only what the article leaves to the app (`Screen`, `DialogView`,
// `requestPhotoAccess`, where the `Scripts` folder is) is filled in here.
import FlowStack
import Foundation
import Testing
#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIn
#endif

private enum AppRoute: Hashable, Codable, FlowRouteConvertible {
    case splash, home, login, paywall
    case editor(id: String)
}

private enum AppDialog: Hashable, Codable, FlowDialogConvertible { case networkError, sessionExpired, loginRequired }

/// The article's views, in a namespace of their own (the drop-in app has a `DialogView` too).
private enum GettingStarted {
    /// A screen of the app (the article leaves it to the app).
    struct Screen: View {
        let route: AppRoute
        let router: FlowRouter<AppRoute, AppDialog>
        var body: some View { Text("\(route)") }
    }

    /// The global dialog's view (the article leaves it to the app).
    struct DialogView: View {
        @Binding var dialog: AppDialog?
        var body: some View { Text("\(String(describing: dialog))") }
    }

    struct RootView: View {
        @StateObject private var router = FlowRouter<AppRoute, AppDialog>(root: .splash)

        var body: some View {
            FlowStackView(router: router) { route in
                Screen(route: route, router: router)
            } destination: { route in
                Screen(route: route, router: router)
            } dialog: { dialog in
                AnyView(DialogView(dialog: dialog))
            }
            .onOpenURL { url in router.open(url: url) }
        }
    }
}

/// The app's photo-permission prompt (the article leaves it to the app).
private func requestPhotoAccess() async -> Bool { true }

/// The example project's folder (the app bundles it as a folder reference named Scripts).
private let scriptsFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Scripts")

@MainActor
private enum Navigation {
    /// Kept for the app's lifetime, so facts can change and the rules can reload.
    static var engine: FlowRulesEngine<AppRoute>?

    static func makeRouter() -> FlowRouter<AppRoute, AppDialog> {
        let router = FlowRouter<AppRoute, AppDialog>(root: .splash)
        do {
            let scripts = scriptsFolder
            let manifest = try FlowManifest.load(contentsOf: scripts.appendingPathComponent("routes.lua"))
            let engine = try FlowRulesEngine<AppRoute>(
                directory: scripts.appendingPathComponent("rules"),
                configuration: FlowRulesConfiguration(manifest: manifest))
            try engine.setFacts(["isLoggedIn": .bool(false)])
            engine.registerAsyncHost("requestPhotoAccess") { _ in [.bool(await requestPhotoAccess())] }
            engine.onFactsChange = { [weak router] in router?.objectWillChange.send() }
            engine.install(into: router)
            Self.engine = engine
        } catch {
            print("the rules did not load; navigation runs without them: \(error)")
        }
        return router
    }
}

/// "Create the router with `@StateObject private var router = Navigation.makeRouter()`."
private struct AppRootView: View {
    @StateObject private var router = Navigation.makeRouter()

    var body: some View {
        FlowStackView(router: router) { route in Text("\(route)") } destination: { route in Text("\(route)") }
    }
}

@Suite("DocC: Getting Started")
@MainActor
struct DocCGettingStartedTests {
    @Test("the root view compiles with import FlowStack and SwiftUI")
    func rootView() {
        let view = GettingStarted.RootView()
        _ = view.body
        _ = AppRootView()
    }

    @Test("once installed, the Lua rules decide, after the Swift checks; facts change through the engine")
    func wiring() throws {
        let router = Navigation.makeRouter()
        let engine = try #require(Navigation.engine, "the example rules must load")
        #expect(router.activeStack.root == .splash)

        // Signed out: the rules' login gate refuses the editor.
        #expect(!router.push(.editor(id: "42")))
        #expect(router.activeStack.path.isEmpty)
        #expect(router.operationHistory.last?.reason == "login required", "\(router.operationHistory.last?.reason ?? "")")
        #expect(router.globalDialog == .loginRequired, "the rules answer with the loginRequired dialog")
        router.hideGlobalDialog()

        // The Swift checks run first: a Swift guard refuses before any rule is asked.
        router.guardOperation = { operation in
            if case .push(.login, _) = operation { return false }
            return true
        }
        #expect(!router.push(.login))
        #expect(router.history.last?.status == .blockedByGuard)
        router.guardOperation = nil

        // "When the app's state changes, tell the rules."
        try Navigation.engine?.setFact("isLoggedIn", true)
        try engine.setFact("hasSeenOnboarding", true)
        #expect(engine.currentFacts["isLoggedIn"] == .bool(true))
        #expect(!router.push(.editor(id: "42")))
        #expect(router.stacks.last?.root == .paywall, "a free user's editor push shows the paywall")
        #expect(router.operationHistory.suffix(2).first?.reason == "premium required")
    }
}
