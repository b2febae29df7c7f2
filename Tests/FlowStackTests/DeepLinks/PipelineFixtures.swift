import FlowStackCore
import Foundation
import Testing

/// Routes of the deep-link pipeline tests.
enum LinkRoute: Hashable, Codable, CustomStringConvertible, FlowRouteConvertible {
    case home, editor, login, paywall, settings
    case detail(id: String)
    case promo(String)
    case search(String)

    var description: String {
        switch self {
        case .home: "home"
        case .editor: "editor"
        case .login: "login"
        case .paywall: "paywall"
        case .settings: "settings"
        case .detail(let id): "detail(\(id))"
        case .promo(let code): "promo(\(code))"
        case .search(let query): "search(\(query))"
        }
    }
}

typealias LinkRouter = FlowRouter<LinkRoute, String>

/// Rules that guard the editor: login first, then premium; each redirects to its screen.
@MainActor
final class LinkRules: FlowRulesHook {
    var isLoggedIn = false
    var isPremium = false
    var generation: Int { 1 }

    func decide(_ request: FlowRuleRequest) -> FlowRuleDecision {
        guard request.routeNames.contains("editor") else { return .allow }
        if !isLoggedIn {
            return .redirect(FlowRuleTarget(.sheet, route: LinkRoute.login.flowRoute), FlowRuleBlock(stage: .guard, reason: "login required"))
        }
        if !isPremium {
            return .redirect(FlowRuleTarget(.fullScreenCover, route: LinkRoute.paywall.flowRoute), FlowRuleBlock(stage: .guard, reason: "premium required"))
        }
        return .allow
    }
}

/// A settable clock for the pending-link timeout.
@MainActor
final class LinkClock {
    var date = Date(timeIntervalSince1970: 1_000_000)

    func advance(_ seconds: TimeInterval) {
        date = date.addingTimeInterval(seconds)
    }
}

/// A fact a Swift precondition reads.
@MainActor
final class LinkFlag {
    var value = false
}

/// The links every pipeline test uses.
@MainActor
func makeLinks(policy: FlowLinkPolicy = .allowAll) throws -> FlowDeepLinks<LinkRoute> {
    var links = FlowDeepLinks<LinkRoute>(policy: policy)
    try links.add("/products/:id") { p, _ in
        p["id"].map { [.popToRoot(), .push(.detail(id: $0))] }
    }
    try links.add("/editor/:doc") { p, _ in
        [.popToRoot(), .push(.editor), .push(.detail(id: p["doc"] ?? ""))]
    }
    try links.add("/promo/*") { p, _ in [.sheet(.promo(p["*"] ?? ""))] }
    try links.add("/settings") { _, _ in [.sheet(.settings)] }
    try links.add("/search") { p, _ in p["q"].map { [.push(.search($0))] } }
    try links.add("/nothing") { _, _ in [] }
    try links.add("/back-to-paywall") { _, _ in [.popTo(.paywall)] }
    try links.add("/nested/:id") { p, _ in [.sheet(.settings), .fullScreenCover(.detail(id: p["id"] ?? ""))] }
    return links
}

/// A router on `home` with the test links, the rules and a controllable clock.
@MainActor
func makeLinkRouter(
    policy: FlowLinkPolicy = .allowAll,
    rules: LinkRules? = nil
) throws -> (router: LinkRouter, clock: LinkClock) {
    let router = LinkRouter(root: .home)
    let clock = LinkClock()
    router.deepLinks.resolver = try makeLinks(policy: policy)
    router.deepLinks.now = { clock.date }
    if let rules { router.installRules(rules) }
    return (router, clock)
}

/// Parses a URL, failing the test when it does not parse.
func link(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
    try #require(URL(string: text), sourceLocation: sourceLocation)
}
