import FlowStackCore
import FlowStackTestSupport
import Foundation
import Testing
@testable import FlowScript

@MainActor
struct EngineSmokeTests {
    static let scripts = FlowStackBinary.packageRoot.appendingPathComponent("Scripts")

    @Test func exampleRulesDecide() throws {
        let manifest = try FlowManifest.load(contentsOf: Self.scripts.appendingPathComponent("routes.lua"))
        let engine = try FlowRulesEngine<FlowRouteValue>(
            directory: Self.scripts.appendingPathComponent("rules"),
            configuration: FlowRulesConfiguration(manifest: manifest))
        let router = FlowRouter<FlowRouteValue, String>(root: FlowRouteValue("home"))
        engine.install(into: router)
        try engine.setFacts(["isLoggedIn": true, "hasSeenOnboarding": true])
        let result = router.perform(.push(FlowRouteValue("editor", ["id": "1"]), target: .active))
        #expect(result.status == .redirected, "\(result)")
        #expect(result.reason == "premium required")
        #expect(router.topRoute == FlowRouteValue("paywall"))
        #expect(router.history.last?.generation == 1)
        let style = router.resolvedStyle(stackIndex: 1, screenDepth: 0)
        #expect(style?.modal != nil)
    }
}

struct UUIDFlowStringTests {
    @Test func matchesFoundationsFormatting() {
        for _ in 0..<100 {
            let id = UUID()
            #expect(id.flowString == id.uuidString)
        }
    }
}
