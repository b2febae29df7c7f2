// The README's "Wiring the engine into an app" example, as an app writes it with `import FlowStack`
// alone: it must compile unchanged and behave as the README's rules and flows say. Only the two
// app-side names the README leaves to the app (`session`, `Photos`) and where the rules folder is
// are filled in here.
import FlowStack
import Foundation
import Testing

private enum AppRoute: Hashable, Codable, FlowRouteConvertible {   // Codable enums convert for free
    case splash, home, paywall
    case editor(id: String)
}

private enum AppDialog: Hashable, Codable, FlowDialogConvertible {  // dialogs go through flow.dialog_guard
    case loginRequired, ratingPrompt
}

/// The app's sign-in state (the README's `session`).
@MainActor private enum session {
    static var isLoggedIn = true
}

/// The app's photo-permission prompt (the README's `Photos`).
private enum Photos {
    static func requestAccess() async -> Bool { true }
}

/// The example project's folder (the app bundles it as a folder reference named Scripts).
private let scriptsFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Scripts")

@MainActor
private func makeRouter() throws -> FlowRouter<AppRoute, AppDialog> {
    let router = FlowRouter<AppRoute, AppDialog>(root: .splash)
    let scripts = scriptsFolder
    let manifest = try FlowManifest.load(contentsOf: scripts.appendingPathComponent("routes.lua"))
    let engine = try FlowRulesEngine<AppRoute>(
        directory: scripts.appendingPathComponent("rules"),
        configuration: FlowRulesConfiguration(manifest: manifest))
    try engine.setFacts(["isLoggedIn": .bool(session.isLoggedIn)])
    engine.registerAsyncHost("requestPhotoAccess") { _ in [.bool(await Photos.requestAccess())] }
    engine.install(into: router)   // every operation, sync and async, and every style goes through Lua
    try engine.startWatching()     // hot reload (development builds)
    return router
}

@Suite("The README's wiring example")
@MainActor
struct ReadmeWiringTests {
    @Test("compiles with import FlowStack alone and sends a signed-in free user's editor push to the paywall")
    func wiring() throws {
        session.isLoggedIn = true
        let router = try makeRouter()   // the engine lives as long as the router it is installed into
        #expect(router.activeStack.root == .splash)
        let applied = router.push(.editor(id: "42"))
        #expect(!applied)
        #expect(router.stacks.last?.root == .paywall, "\(router.operationHistory.suffix(2))")
        #expect(router.operationHistory.suffix(2).first?.reason == "premium required")
    }
}
