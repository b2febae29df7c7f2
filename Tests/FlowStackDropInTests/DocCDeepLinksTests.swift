// The FlowStackCore DocC article "Deep Links", its snippet as an app writes it with
// `import FlowStack`: it must compile unchanged and do what the article says. The routes the
// article's plans name are filled in here; the blocking rule is a Lua guard, as in the article's
// example reason.
import FlowStack
import Foundation
import Testing

private enum AppRoute: Hashable, Codable, FlowRouteConvertible {
    case home, promo, paywall, settings
    case detail(id: String)
    case editor(id: String)
}

/// The article's resolver, registered as it shows.
@MainActor
private func articleLinks() throws -> FlowDeepLinks<AppRoute> {
    var links = FlowDeepLinks<AppRoute>(policy: FlowLinkPolicy(allowedSchemes: ["myapp", "https"],
                                                               allowedHosts: ["example.com"]))
    try links.add("/products/:id") { parameters, _ in
        guard let id = parameters["id"] else { return nil }
        return [.popToRoot(), .push(.detail(id: id))]
    }
    try links.add("/promo/*") { _, _ in [.sheet(.promo)] }
    return links
}

/// The article's example reason: a premium-only editor.
private let premiumRule = """
    flow.guard("editor", function(op)
      if not facts.isPremium then
        return flow.redirect("fullScreenCover", "paywall", "premium required")
      end
    end)
    """

@MainActor
private func url(_ string: String) throws -> URL {
    try #require(URL(string: string))
}

@Suite("DocC: Deep Links")
@MainActor
struct DocCDeepLinksTests {
    @Test("the article's snippet: myapp://products/42 pops to the root and pushes the detail")
    func snippet() throws {
        let router = FlowRouter<AppRoute, String>(root: .home)
        router.push(.settings)
        router.deepLinks.resolver = try articleLinks()

        let result = router.open(url: URL(string: "myapp://products/42")!)
        #expect(result.status == .applied)
        #expect(router.activeStack.path == [.detail(id: "42")])
        #expect(router.history.suffix(2).allSatisfy { $0.source == .deeplink })
    }

    @Test("the four statuses: applied, rejected (scheme or web host), unhandled")
    func statuses() throws {
        let router = FlowRouter<AppRoute, String>(root: .home)
        router.deepLinks.resolver = try articleLinks()
        #expect(router.open(url: try url("https://example.com/products/7")).status == .applied)
        #expect(router.open(url: try url("myapp://promo/spring/sale")).status == .applied)
        #expect(router.topRoute == .promo)
        let stacks = router.stacks
        #expect(router.open(url: try url("ftp://example.com/products/7")).status == .rejected)
        #expect(router.open(url: try url("https://other.example/products/7")).status == .rejected)
        #expect(router.open(url: try url("myapp://nowhere/7")).status == .unhandled)
        // A custom scheme's host is the first path segment; allowedHosts applies to web links only.
        #expect(router.stacks == stacks)
    }

    @Test("query items join the parameters; a path parameter wins; the wildcard is under *")
    func parameters() throws {
        var seen: [[String: String]] = []
        var links = FlowDeepLinks<AppRoute>()
        try links.add("/products/:id") { parameters, _ in
            seen.append(parameters)
            return [.push(.detail(id: parameters["id"] ?? ""))]
        }
        try links.add("/promo/*") { parameters, _ in
            seen.append(parameters)
            return [.sheet(.promo)]
        }
        let router = FlowRouter<AppRoute, String>(root: .home)
        router.deepLinks.resolver = links
        router.open(url: try url("myapp://products/42?id=9&ref=mail"))
        router.open(url: try url("myapp://promo/spring/sale"))
        #expect(seen.first == ["id": "42", "ref": "mail"])
        #expect(seen.last?["*"] == "spring/sale")
    }

    @Test("the first registered pattern wins; diagnostics list the patterns that can never match")
    func firstWinsAndDiagnostics() throws {
        var links = FlowDeepLinks<AppRoute>()
        try links.add("/products/:id") { _, _ in [.push(.detail(id: "first"))] }
        try links.add("/products/:code") { _, _ in [.push(.detail(id: "second"))] }
        try links.add("/products/*") { _, _ in [.push(.detail(id: "third"))] }
        let router = FlowRouter<AppRoute, String>(root: .home)
        router.deepLinks.resolver = links
        router.open(url: try url("myapp://products/1"))
        #expect(router.topRoute == .detail(id: "first"))
        #expect(links.diagnostics.count >= 1, "\(links.diagnostics)")
    }

    @Test("the value is copied when assigned: a link registered afterwards is not seen")
    func copiedWhenAssigned() throws {
        var links = FlowDeepLinks<AppRoute>()
        let router = FlowRouter<AppRoute, String>(root: .home)
        router.deepLinks.resolver = links
        try links.add("/settings") { _, _ in [.push(.settings)] }
        #expect(router.open(url: try url("myapp://settings")).status == .unhandled)
    }

    @Test("a blocked step: nothing applies, the rule's redirect runs, the link is held and retried when facts change")
    func pendingAndHeld() throws {
        let router = FlowRouter<AppRoute, String>(root: .home)
        let engine = try FlowRulesEngine<AppRoute>(sources: [FlowRulesSource(name: "rules/paywall.lua", text: premiumRule)])
        engine.install(into: router)
        var links = FlowDeepLinks<AppRoute>()
        try links.add("/edit/:id") { parameters, _ in
            [.push(.editor(id: parameters["id"] ?? "")), .push(.settings)]
        }
        router.deepLinks.resolver = links
        var events: [FlowDeepLinkLogEntry] = []
        router.deepLinks.onEvent = { events.append($0) }

        let link = try url("myapp://edit/7")
        let result = router.open(url: link)
        #expect(result.status == .pending)
        #expect(result.reason == #"step 1 of 2 (push editor(id: "7")) was redirected: premium required"#)
        #expect(router.rootStack.path.isEmpty)
        #expect(router.topRoute == .paywall, "the rule's redirect was performed")
        #expect(router.pendingLink == link)
        #expect(router.deepLinks.pendingLinkTimeout == 600)
        #expect(router.deepLinks.linkLog.count == 1)
        #expect(events.count == 1)

        // A retry while the redirect's target is on screen does not perform it again.
        #expect(router.resumePendingLink()?.status == .pending)
        #expect(router.stacks.count == 2)
        router.dismiss()
        try engine.setFact("isPremium", true)   // the engine calls factsDidChange
        #expect(router.pendingLink == nil)
        #expect(router.rootStack.path == [.editor(id: "7"), .settings])
    }

    @Test("one link is held at most: a newer pending one replaces it, resume and drop")
    func heldLinkLifecycle() throws {
        let router = FlowRouter<AppRoute, String>(root: .home)
        let gate = Gate()
        router.guardOperation = { _ in gate.isOpen }
        var links = FlowDeepLinks<AppRoute>()
        try links.add("/products/:id") { parameters, _ in [.push(.detail(id: parameters["id"] ?? ""))] }
        router.deepLinks.resolver = links

        #expect(router.open(url: try url("myapp://products/1")).status == .pending)
        #expect(router.open(url: try url("myapp://products/2")).status == .pending)
        #expect(router.pendingLink == (try url("myapp://products/2")))
        #expect(router.resumePendingLink()?.status == .pending)
        router.deepLinks.dropPendingLink()
        #expect(router.pendingLink == nil)

        // Dropped after pendingLinkTimeout seconds.
        #expect(router.open(url: try url("myapp://products/4")).status == .pending)
        router.deepLinks.pendingLinkTimeout = 0
        #expect(router.pendingLink == nil)
        router.deepLinks.pendingLinkTimeout = 600

        #expect(router.open(url: try url("myapp://products/3")).status == .pending)
        gate.isOpen = true
        #expect(router.deepLinks.factsDidChange()?.status == .applied)
        #expect(router.topRoute == .detail(id: "3"))
        #expect(router.pendingLink == nil)
    }
}

/// Whether a test's Swift guard lets operations through.
@MainActor
private final class Gate {
    var isOpen = false
}
