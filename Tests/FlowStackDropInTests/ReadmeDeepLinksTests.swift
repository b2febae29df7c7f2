// The README's "Deep links and held navigations" section, as an app writes it with
// `import FlowStack`: the Lua snippets load unchanged and the router does what the section says.
// Only the routes and the manifest the snippets assume are filled in here.
import FlowStack
import Foundation
import Testing

private enum AppRoute: Hashable, Codable, FlowRouteConvertible {
    case home, login, orders, settings
    case detail(id: String)
}

/// The README's deep link and held navigation, with a login gate for the link.
private let readmeRules = """
    flow.deeplink("/products/:id", function(p, url)
      return { flow.op("popToRoot"), flow.op("push", { name = "detail", id = p.id }) }
    end)

    flow.guard("orders", function(op)
      if not facts.isLoggedIn then
        return flow.redirect("sheet", "login", "sign in to see your orders", { resume = true })
      end
    end)

    flow.guard("detail", function(op)
      if not facts.isLoggedIn then return flow.redirect("sheet", "login", "login required") end
    end)
    """

private let readmeManifest = """
    return {
      root = "home",
      routes = { home = {}, login = {}, orders = {}, settings = {}, detail = { params = { id = "string" } } },
      facts = { isLoggedIn = false },
      links = { schemes = { "myapp" } },
    }
    """

@MainActor
private func makeRouter() throws -> (FlowRouter<AppRoute, String>, FlowRulesEngine<AppRoute>) {
    let router = FlowRouter<AppRoute, String>(root: .home)
    let engine = try FlowRulesEngine<AppRoute>(
        sources: [FlowRulesSource(name: "rules/links.lua", text: readmeRules)],
        configuration: FlowRulesConfiguration(manifest: FlowManifest.parse(source: readmeManifest)))
    engine.install(into: router)
    return (router, engine)
}

@Suite("The README's deep links and held navigations")
@MainActor
struct ReadmeDeepLinksTests {
    @Test("a link runs as one transaction with source deeplink; blocked, its redirect runs and it is held until facts change")
    func deepLink() throws {
        let (router, engine) = try makeRouter()
        router.push(.settings)
        let url = try #require(URL(string: "myapp://products/42"))
        let result = router.open(url: url)
        #expect(result.status == .pending)
        #expect(result.reason?.contains("login required") == true, "\(result.reason ?? "")")
        #expect(router.rootStack.path == [.settings], "nothing of the plan applied")
        #expect(router.topRoute == .login, "the rule's redirect ran")
        #expect(router.pendingLink == url)
        #expect(router.pendingLinkTimeout == 600)

        try engine.setFacts(["isLoggedIn": true])
        #expect(router.pendingLink == nil)
        // The retry dismisses the login sheet the redirect showed, then runs the plan, in one
        // transaction: the product lands on the root stack.
        #expect(router.topRoute == .detail(id: "42"))
        #expect(router.stacks.count == 1, "the login sheet is dismissed")
        #expect(router.rootStack.path == [.detail(id: "42")])
        #expect(router.history.last?.source == .deeplink)

        #expect(router.open(url: try #require(URL(string: "myapp://nowhere"))).status == .unhandled)
        #expect(router.open(url: try #require(URL(string: "https://example.com/products/1"))).status == .rejected)
    }

    @Test("a held navigation: the login sheet shows, the push is held, and runs with source resume once facts change")
    func heldNavigation() throws {
        let (router, engine) = try makeRouter()
        #expect(!router.push(.orders))
        #expect(router.topRoute == .login)
        #expect(router.pendingNavigation?.command.operation == .push(.orders, target: .active))
        #expect(router.pendingNavigationTimeout == 600)

        try engine.setFacts(["isLoggedIn": true])
        #expect(router.pendingNavigation == nil)
        #expect(router.stacks.count == 1, "the login sheet was dismissed")
        #expect(router.topRoute == .orders)
        #expect(router.history.last?.source == .resume)
    }

    @Test("resumePendingNavigation and cancelPendingNavigation")
    func resumeAndCancel() throws {
        let (router, engine) = try makeRouter()
        #expect(!router.push(.orders))
        #expect(router.resumePendingNavigation().status == .stillHeld, "still refused: stays held")
        #expect(router.pendingNavigation != nil)
        #expect(router.cancelPendingNavigation() != nil)
        #expect(router.pendingNavigation == nil)
        try engine.setFacts(["isLoggedIn": true])
        #expect(router.topRoute == .login, "nothing was held any more")
    }
}
