import FlowStackCore
import Foundation
import Testing

@MainActor
@Suite("Deep link pipeline: applied plans")
struct DeepLinkPipelineApplyTests {
    @Test func appliedPlanPopsToRootAndPushesDetail() throws {
        let (router, _) = try makeLinkRouter()
        router.push(.settings)
        router.push(.search("old"))

        let result = router.open(url: try link("myapp://products/42"))

        #expect(result.status == .applied)
        #expect(result.reason == nil)
        #expect(result.plan?.pattern == "/products/:id")
        #expect(result.plan?.parameters == ["id": "42"])
        #expect(result.plan?.commands == [.popToRoot(), .push(.detail(id: "42"))])
        #expect(result.transaction?.isCommitted == true)
        #expect(result.steps.map(\.status) == [.applied, .applied])
        #expect(router.stacks.count == 1)
        #expect(router.rootStack.path == [.detail(id: "42")])
        #expect(router.pendingLink == nil)
    }

    @Test func customSchemeAndUniversalLinkOpenTheSamePlan() throws {
        let policy = FlowLinkPolicy(allowedSchemes: ["myapp", "https"], allowedHosts: ["example.com"])
        for text in ["myapp://products/7", "https://example.com/products/7", "https://EXAMPLE.com/products/7/"] {
            let (router, _) = try makeLinkRouter(policy: policy)
            let result = router.open(url: try link(text))
            #expect(result.status == .applied, "\(text): \(result.reason ?? "")")
            #expect(router.topRoute == .detail(id: "7"), "\(text)")
        }
    }

    @Test func percentEncodedParametersReachThePlanDecoded() throws {
        let (router, _) = try makeLinkRouter()
        let result = router.open(url: try link("myapp://products/caf%C3%A9%20au%20lait%2F2"))
        #expect(result.status == .applied)
        #expect(result.plan?.parameters["id"] == "café au lait/2")
        #expect(router.topRoute == .detail(id: "café au lait/2"))

        let search = router.open(url: try link("myapp://search?q=red%20shoes%26socks"))
        #expect(search.status == .applied)
        #expect(router.topRoute == .search("red shoes&socks"))
    }

    @Test func queryItemsJoinParametersAndPathParametersWin() throws {
        let (router, _) = try makeLinkRouter()
        let result = router.open(url: try link("myapp://products/42?id=99&tab=reviews"))
        #expect(result.plan?.parameters == ["id": "42", "tab": "reviews"])
        #expect(router.topRoute == .detail(id: "42"))
    }

    @Test func handlerReceivesTheURL() throws {
        let router = LinkRouter(root: .home)
        var links = FlowDeepLinks<LinkRoute>()
        try links.add("/echo/*") { _, url in [.push(.search(url.absoluteString))] }
        router.deepLinks.resolver = links
        let url = try link("myapp://echo/a/b?x=1#frag")
        #expect(router.open(url: url).status == .applied)
        #expect(router.topRoute == .search(url.absoluteString))
    }

    @Test func wildcardCaptureReachesThePlan() throws {
        let (router, _) = try makeLinkRouter()
        let result = router.open(url: try link("myapp://promo/spring/sale"))
        #expect(result.status == .applied)
        #expect(router.activeStack.style == .sheet)
        #expect(router.activeStack.root == .promo("spring/sale"))
    }

    @Test func historyEntriesOfThePlanHaveSourceDeeplink() throws {
        let (router, _) = try makeLinkRouter()
        router.push(.settings)
        let before = router.history.count
        router.open(url: try link("myapp://products/5"))
        let added = Array(router.history.dropFirst(before))
        #expect(added.count == 2)
        #expect(added.map(\.source) == [.deeplink, .deeplink])
        #expect(added.compactMap(\.command) == [.popToRoot(), .push(.detail(id: "5"))])
        #expect(router.operationHistory.last?.source == .deeplink)
    }

    @Test func openWithAnotherSourceRecordsThatSource() throws {
        let (router, _) = try makeLinkRouter()
        let before = router.history.count
        let result = router.open(try link("myapp://settings"), source: .code)
        #expect(result.status == .applied)
        #expect(router.history.dropFirst(before).map(\.source) == [.code])
    }

    @Test func planWithTwoPresentationsProducesNestedStateThatStagesValidly() throws {
        let (router, _) = try makeLinkRouter()
        router.push(.search("x"))
        let shown = router.stacks

        let result = router.open(url: try link("myapp://nested/9"))

        #expect(result.status == .applied)
        #expect(router.stacks.map(\.style) == [.root, .sheet, .fullScreenCover])
        #expect(router.stacks.map(\.root) == [.home, .settings, .detail(id: "9")])
        let steps = router.stagingPlan(from: shown)
        #expect(steps.map(\.kind) == [.present, .present])
        var current = shown
        for step in steps {
            #expect(FlowStagingPlanner.isSingleUpdate(from: current, to: step.stacks))
            current = step.stacks
        }
        #expect(current == router.stacks)
    }

    @Test func equalLinksGiveEqualResults() throws {
        let (first, _) = try makeLinkRouter(policy: FlowLinkPolicy(allowedSchemes: ["myapp"]))
        let (second, _) = try makeLinkRouter(policy: FlowLinkPolicy(allowedSchemes: ["myapp"]))
        let url = try link("ftp://products/1")
        #expect(first.open(url: url) == second.open(url: url))
        let applied = first.open(url: try link("myapp://settings"))
        #expect(applied == applied)
        #expect(applied != first.open(url: url))
        #expect(Set([applied, applied]).count == 1)
    }
}
