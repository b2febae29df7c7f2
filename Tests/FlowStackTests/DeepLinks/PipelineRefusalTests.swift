import FlowStackCore
import Foundation
import Testing

@MainActor
@Suite("Deep link pipeline: rejected and unhandled links")
struct DeepLinkPipelineRefusalTests {
    /// Opens `text` and checks that nothing changed: state, history, held link.
    private func expectUntouched(
        _ router: LinkRouter, opening text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> FlowDeepLinkResult<LinkRoute> {
        let state = router.state
        let historyCount = router.history.count
        let result = router.open(url: try link(text))
        #expect(router.state == state, sourceLocation: sourceLocation)
        #expect(router.history.count == historyCount, sourceLocation: sourceLocation)
        #expect(router.pendingLink == nil, sourceLocation: sourceLocation)
        return result
    }

    @Test func rejectedSchemeChangesNothing() throws {
        let (router, _) = try makeLinkRouter(policy: FlowLinkPolicy(allowedSchemes: ["myapp", "https"]))
        let result = try expectUntouched(router, opening: "otherapp://products/42")
        #expect(result.status == .rejected)
        #expect(result.reason == "scheme 'otherapp' is not allowed (allowed: myapp, https)")
        #expect(result.plan == nil)
        #expect(result.transaction == nil)
    }

    @Test func rejectedHostChangesNothing() throws {
        let policy = FlowLinkPolicy(allowedSchemes: ["myapp", "https"], allowedHosts: ["example.com"])
        let (router, _) = try makeLinkRouter(policy: policy)
        let result = try expectUntouched(router, opening: "https://evil.example.org/products/42")
        #expect(result.status == .rejected)
        #expect(result.reason == "host 'evil.example.org' is not allowed (allowed: example.com)")
    }

    @Test func unhandledPathNamesThePath() throws {
        let (router, _) = try makeLinkRouter()
        let result = try expectUntouched(router, opening: "myapp://orders/12")
        #expect(result.status == .unhandled)
        #expect(result.reason?.contains("no deep link pattern matches path '/orders/12'") == true)
    }

    @Test func handlerReturningNilIsUnhandled() throws {
        let (router, _) = try makeLinkRouter()
        let result = try expectUntouched(router, opening: "myapp://search?page=2")
        #expect(result.status == .unhandled)
        #expect(result.reason?.contains("deep link '/search'") == true)
        #expect(result.reason?.contains("returned no plan") == true)
    }

    @Test func handlerReturningAnEmptyPlanIsUnhandled() throws {
        let (router, _) = try makeLinkRouter()
        let result = try expectUntouched(router, opening: "myapp://nothing")
        #expect(result.status == .unhandled)
        #expect(result.reason?.contains("returned no plan") == true)
    }

    @Test func planThatCannotRunIsUnhandledAndNotHeld() throws {
        let (router, _) = try makeLinkRouter()
        router.push(.search("a"))
        let state = router.state
        let result = router.open(url: try link("myapp://back-to-paywall"))
        #expect(result.status == .unhandled)
        #expect(result.reason?.contains("cannot run in the current state") == true)
        #expect(result.reason?.contains("found no such route in the stack") == true)
        #expect(result.failedStepIndex == 0)
        #expect(router.state == state)
        #expect(router.pendingLink == nil)
    }

    @Test func withoutAResolverEveryLinkIsUnhandled() throws {
        let router = LinkRouter(root: .home)
        let result = router.open(url: try link("myapp://products/1"))
        #expect(result.status == .unhandled)
        #expect(result.reason?.contains("no deep links are registered") == true)
        #expect(router.history.isEmpty)
    }

    @Test func refusedLinksKeepTheHeldLink() throws {
        let rules = LinkRules()
        let (router, _) = try makeLinkRouter(policy: FlowLinkPolicy(allowedSchemes: ["myapp"]), rules: rules)
        let held = try link("myapp://editor/a")
        #expect(router.open(url: held).status == .pending)
        #expect(router.open(url: try link("ftp://products/1")).status == .rejected)
        #expect(router.open(url: try link("myapp://unknown")).status == .unhandled)
        #expect(router.pendingLink == held)
    }

    @Test func throwingPlanBuilderIsUnhandledWithTheError() throws {
        struct ScriptError: Error, CustomStringConvertible {
            var description: String { "links.lua:4: attempt to index a nil value" }
        }
        var matcher = FlowLinkMatcher<String>()
        try matcher.add("/products/:id", "product", file: "links.lua", line: 3)
        let url = try link("myapp://products/1")
        let failed = FlowDeepLinkResolution<LinkRoute>(matcher.resolve(url)) { _ in throw ScriptError() }
        #expect(failed == .unhandled(
            reason: "deep link '/products/:id' (links.lua:3) matched '/products/1' but its handler failed: "
                + "links.lua:4: attempt to index a nil value"
        ))
        let planned = FlowDeepLinkResolution<LinkRoute>(matcher.resolve(url)) { match in
            [.push(.detail(id: match.parameters["id"] ?? ""))]
        }
        #expect(planned.plan == FlowDeepLinkPlan(
            [.push(.detail(id: "1"))], pattern: "/products/:id", parameters: ["id": "1"],
            location: FlowLinkSourceLocation(file: "links.lua", line: 3)
        ))
        #expect(planned.reason == nil)
    }

    @Test func customResolverWithAnEmptyPlanIsUnhandled() throws {
        struct Fixed: FlowDeepLinkResolver {
            let resolution: FlowDeepLinkResolution<LinkRoute>
            func resolve(_ url: URL) -> FlowDeepLinkResolution<LinkRoute> { resolution }
        }
        let router = LinkRouter(root: .home)
        router.deepLinks.resolver = Fixed(resolution: .plan(FlowDeepLinkPlan([])))
        let empty = router.open(url: try link("myapp://x"))
        #expect(empty.status == .unhandled)
        #expect(empty.reason == "the resolver returned an empty plan for link 'myapp://x'; return at least one operation")

        router.deepLinks.resolver = Fixed(resolution: .plan(FlowDeepLinkPlan([.push(.settings)])))
        #expect(router.open(url: try link("myapp://x")).status == .applied)
        #expect(router.topRoute == .settings)
    }

    @Test func centerWhoseRouterIsGoneReportsIt() throws {
        var router: LinkRouter? = LinkRouter(root: .home)
        let center = FlowDeepLinkCenter(router: try #require(router), resolver: try makeLinks())
        router = nil
        #expect(center.router == nil)
        let result = center.open(url: try link("myapp://products/1"))
        #expect(result.status == .unhandled)
        #expect(result.reason?.contains("no longer exists") == true)
    }
}
