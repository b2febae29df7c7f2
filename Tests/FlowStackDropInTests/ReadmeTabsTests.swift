// The README's "Tabs" example, as an app writes it with `import FlowStack` (and SwiftUI for `Label` and `Text`): the Swift part
// must compile unchanged and the Lua part must decide as the README says. Only what the README
// leaves to the app (`symbol`, `screen(for:)`, the routes) is filled in here.
import FlowStack
import Foundation
import Testing
#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIn
#endif

private enum AppRoute: Hashable, Codable, FlowRouteConvertible {
    case feedHome, searchHome, profileHome, signIn
    case post(id: String)
}

private enum AppDialog: Hashable, Codable, FlowDialogConvertible {
    case loginRequired
}

enum AppTab: String, FlowTab, CaseIterable { case feed, search, profile }   // raw values name the tabs

extension AppTab {
    /// The tab's SF Symbol (the README leaves it to the app).
    var symbol: String { "circle" }
}

/// The app's screen for a route (the README leaves it to the app).
@MainActor private func screen(for route: AppRoute) -> Text { Text("\(route)") }

/// The README's manifest line and rules, as a project.
private let readmeRules = """
    flow.precondition("selectTab", function(op, stacks, ctx)   -- a signed-out tap on profile: sign in first
      if op.tab == "profile" and not facts.isLoggedIn then
        return flow.redirect("sheet", "signIn", "sign in to see your profile")
      end
    end)
    flow.deeplink("/posts/:id", function(p)                   -- a link lands in its tab
      return { flow.op("dismissAll"), flow.op("selectTab", "feed"), flow.op("popToRoot"),
               flow.op("push", { name = "post", id = p.id }) }
    end)
    """

private let readmeManifest = """
    return {
      tabs = { { name = "feed", root = "feedHome" }, { name = "search", root = "searchHome" }, { name = "profile", root = "profileHome" } },
      routes = { feedHome = {}, searchHome = {}, profileHome = {}, post = { params = { id = "string" } }, signIn = {} },
      facts = { isLoggedIn = false },
      links = { schemes = { "myapp" } },
    }
    """

@Suite("The README's tabs example")
@MainActor
struct ReadmeTabsTests {
    @Test("compiles with import FlowStack alone; a signed-out profile tap signs in first, a link lands in its tab")
    func tabs() throws {
        let router = FlowRouter<AppRoute, AppDialog>(
            tabs: [AppTab.feed: .feedHome, .search: .searchHome, .profile: .profileHome])

        let view = FlowTabView(router: router, tabs: AppTab.allCases) { tab in
            Label(tab.rawValue.capitalized, systemImage: tab.symbol)
        } root: { route in screen(for: route) } destination: { route in screen(for: route) }
        _ = view

        let manifest = try FlowManifest.parse(source: readmeManifest)
        let engine = try FlowRulesEngine<AppRoute>(
            sources: [FlowRulesSource(name: "rules/tabs.lua", text: readmeRules)],
            configuration: FlowRulesConfiguration(manifest: manifest))
        engine.install(into: router)

        #expect(router.tabNames == ["feed", "search", "profile"])
        #expect(!router.selectTab(AppTab.profile))
        #expect(router.selectedTab(as: AppTab.self) == .feed)
        #expect(router.stacks.last?.root == .signIn, "\(router.operationHistory)")

        _ = router.selectTab(AppTab.search)
        let link = try #require(URL(string: "myapp://posts/9"))
        #expect(router.open(url: link).status == .applied)
        #expect(router.selectedTab(as: AppTab.self) == .feed)
        #expect(router.stacks.count == 1)
        #expect(router.stacks.first?.path == [.post(id: "9")])
    }

    @Test("router.stacks is what is on screen; rules see every tab in ctx.tabs; selecting the selected tab pops it")
    func stacksAndCtxTabs() throws {
        let router = FlowRouter<AppRoute, AppDialog>(
            tabs: [AppTab.feed: .feedHome, .search: .searchHome, .profile: .profileHome])
        let engine = try FlowRulesEngine<AppRoute>(sources: [FlowRulesSource(name: "rules/tabs.lua", text: """
            flow.guard("post", function(op, stacks, ctx)
              if ctx.tab ~= "feed" or #ctx.tabs ~= 3 or ctx.tabs[2].name ~= "search" then return false, "ctx.tabs" end
              if ctx.tabs[1].selected ~= true or ctx.tabs[3].stack.routes[1].name ~= "profileHome" then return false, "tab fields" end
              return true
            end)
            """)])
        engine.install(into: router)
        #expect(router.push(.post(id: "1")), "\(router.history.last?.reason ?? "")")
        router.sheet(.signIn)
        #expect(router.selectTab(AppTab.search))
        #expect(router.stacks.count == 2)
        #expect(router.stacks[0].root == .searchHome)
        #expect(router.stacks[1].root == .signIn)
        router.dismiss()
        #expect(router.selectTab(AppTab.feed))
        #expect(router.stacks[0].path == [.post(id: "1")])
        #expect(router.selectTab(AppTab.feed))
        #expect(router.stacks[0].path.isEmpty)
    }
}
