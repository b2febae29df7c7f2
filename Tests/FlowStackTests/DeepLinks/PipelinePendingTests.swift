import FlowStackCore
import Foundation
import Testing

@MainActor
@Suite("Deep link pipeline: blocked plans and held links")
struct DeepLinkPipelinePendingTests {
    @Test func planBlockedMidwayByADefaultPreconditionLeavesTheWholeStateUntouched() throws {
        let (router, _) = try makeLinkRouter()
        let isLoggedIn = LinkFlag()
        router.setDefaultPrecondition(for: .push) { operation, _ in
            if case .push(.editor, _) = operation { return isLoggedIn.value }
            return true
        }
        router.push(.search("a"))
        router.sheet(.settings, path: [.search("b")])
        router.showGlobalDialog("offline")
        router.showGlobalDialog("update", policy: .queue)
        let state = router.state
        let historyCount = router.history.count

        let result = router.open(url: try link("myapp://editor/doc1"))

        #expect(result.status == .pending)
        #expect(router.state == state)
        #expect(result.failedStepIndex == 1)
        #expect(result.steps.map(\.status) == [.rolledBack, .blockedByPrecondition, .rolledBack])
        #expect(result.reason == "step 2 of 3 (push editor) was blocked by a precondition: "
            + "the default precondition for push returned false")
        #expect(result.requestedRedirect == nil)
        #expect(result.redirect == nil)
        let added = Array(router.history.dropFirst(historyCount))
        #expect(added.count == 1)
        #expect(added.first?.source == .deeplink)
        #expect(added.first?.status == .blockedByPrecondition)
        #expect(router.pendingLink == (try link("myapp://editor/doc1")))

        isLoggedIn.value = true
        let resumed = try #require(router.deepLinks.factsDidChange())
        #expect(resumed.status == .applied)
        #expect(router.stacks.count == 2)
        #expect(router.rootStack.path == [.search("a")])
        #expect(router.activeStack.path == [.editor, .detail(id: "doc1")])
        #expect(router.pendingLink == nil)
    }

    @Test func blockedWithARedirectPerformsTheRedirectAndHoldsTheLink() throws {
        let rules = LinkRules()
        let (router, _) = try makeLinkRouter(rules: rules)
        router.push(.search("a"))
        let url = try link("myapp://editor/doc1")

        let result = router.open(url: url)

        #expect(result.status == .pending)
        #expect(result.reason == "step 2 of 3 (push editor) was redirected: login required")
        #expect(result.requestedRedirect == .sheet(.login))
        #expect(result.redirect?.isApplied == true)
        #expect(router.rootStack.path == [.search("a")])
        #expect(router.stacks.map(\.root) == [.home, .login])
        #expect(router.pendingLink == url)
        let held = try #require(router.deepLinks.heldLink)
        #expect(held.attempts == 1)
        #expect(held.source == .deeplink)
        #expect(held.lastRedirect == .sheet(.login))
        // The held link is part of the router's state value.
        #expect(router.state.pendingLink == held)
        #expect(router.history.last?.source == .deeplink)
        #expect(router.history.last?.command == .sheet(.login))
    }

    @Test func linkHeldUntilLoginIsAppliedWhenTheFactChanges() throws {
        let rules = LinkRules()
        rules.isPremium = true
        let (router, _) = try makeLinkRouter(rules: rules)
        let url = try link("myapp://editor/doc1")
        #expect(router.open(url: url).status == .pending)

        #expect(router.deepLinks.factsDidChange()?.status == .pending)
        #expect(router.stacks.count == 2)

        rules.isLoggedIn = true
        let resumed = try #require(router.deepLinks.factsDidChange())

        #expect(resumed.status == .applied)
        #expect(resumed.trigger == .factsChanged)
        #expect(resumed.url == url)
        #expect(router.pendingLink == nil)
        // The login sheet the redirect presented is dismissed first, in the plan's transaction.
        #expect(router.stacks.map(\.root) == [.home])
        #expect(router.activeStack.path == [.editor, .detail(id: "doc1")])
        #expect(resumed.transaction?.steps.first?.command.kindName == "dismiss")
        #expect(router.deepLinks.factsDidChange() == nil)
    }

    @Test("a held link remembers the sheet its redirect presented; closed by the person, the retry has nothing to dismiss")
    func heldLinkRemembersItsRedirectsSheet() throws {
        let rules = LinkRules()
        rules.isPremium = true
        let (router, _) = try makeLinkRouter(rules: rules)
        let url = try link("myapp://editor/doc1")
        #expect(router.open(url: url).status == .pending)
        let held = try #require(router.deepLinks.heldLink)
        #expect(held.presentedStackID == router.stacks.last?.id)
        #expect(router.stacks.count == 2)

        router.dismiss()
        rules.isLoggedIn = true
        let resumed = try #require(router.deepLinks.factsDidChange())
        #expect(resumed.status == .applied)
        #expect(resumed.transaction?.steps.map(\.command.kindName) == ["popToRoot", "push", "push"], "the plan alone")
        #expect(router.stacks.count == 1)
        #expect(router.activeStack.path == [.editor, .detail(id: "doc1")])
    }

    @Test func factsDidChangeWithoutAHeldLinkDoesNothing() throws {
        let (router, _) = try makeLinkRouter(rules: LinkRules())
        let state = router.state
        #expect(router.deepLinks.factsDidChange() == nil)
        #expect(router.resumePendingLink() == nil)
        #expect(router.state == state)
        #expect(router.deepLinks.linkLog.isEmpty)
    }

    @Test func resumePendingLinkRetriesExplicitly() throws {
        let rules = LinkRules()
        let (router, _) = try makeLinkRouter(rules: rules)
        router.open(url: try link("myapp://editor/doc1"))
        router.dismiss()
        rules.isLoggedIn = true
        rules.isPremium = true

        let result = try #require(router.resumePendingLink())

        #expect(result.status == .applied)
        #expect(result.trigger == .resume)
        #expect(router.stacks.count == 1)
        #expect(router.rootStack.path == [.editor, .detail(id: "doc1")])
        #expect(router.pendingLink == nil)
    }

    @Test func retryBlockedAgainDoesNotStackTheRedirect() throws {
        let rules = LinkRules()
        let (router, _) = try makeLinkRouter(rules: rules)
        router.open(url: try link("myapp://editor/doc1"))
        #expect(router.stacks.count == 2)

        let again = try #require(router.resumePendingLink())

        #expect(again.status == .pending)
        #expect(again.requestedRedirect == .sheet(.login))
        #expect(again.redirect == nil)
        #expect(router.stacks.count == 2)
        #expect(router.deepLinks.heldLink?.attempts == 2)

        let newer = router.open(url: try link("myapp://editor/doc2"))
        #expect(newer.status == .pending)
        #expect(newer.redirect == nil)
        #expect(router.stacks.count == 2)
    }

    @Test func automaticRetryDoesNotRepeatItsRedirectButExplicitResumeDoes() throws {
        let rules = LinkRules()
        let (router, _) = try makeLinkRouter(rules: rules)
        router.open(url: try link("myapp://editor/doc1"))
        router.dismiss()
        let state = router.state

        let automatic = try #require(router.deepLinks.factsDidChange())
        #expect(automatic.status == .pending)
        #expect(automatic.redirect == nil)
        #expect(router.state == state)

        let explicit = try #require(router.resumePendingLink())
        #expect(explicit.status == .pending)
        #expect(explicit.redirect?.isApplied == true)
        #expect(router.activeStack.root == .login)
    }

    @Test func retryMeetingANewObstacleFollowsTheNewRedirect() throws {
        let rules = LinkRules()
        let (router, _) = try makeLinkRouter(rules: rules)
        router.open(url: try link("myapp://editor/doc1"))
        router.dismiss()
        rules.isLoggedIn = true

        let paywalled = try #require(router.deepLinks.factsDidChange())
        #expect(paywalled.status == .pending)
        #expect(paywalled.reason == "step 2 of 3 (push editor) was redirected: premium required")
        #expect(paywalled.redirect?.isApplied == true)
        #expect(router.activeStack.style == .fullScreenCover)
        #expect(router.activeStack.root == .paywall)
        #expect(router.deepLinks.heldLink?.lastRedirect == .fullScreenCover(.paywall))

        rules.isPremium = true
        router.dismiss()
        #expect(router.deepLinks.factsDidChange()?.status == .applied)
        #expect(router.rootStack.path == [.editor, .detail(id: "doc1")])
    }

    @Test func aNewerPendingLinkReplacesTheHeldOne() throws {
        let rules = LinkRules()
        let (router, clock) = try makeLinkRouter(rules: rules)
        let first = try link("myapp://editor/first")
        let second = try link("myapp://editor/second")
        router.open(url: first)
        clock.advance(30)
        router.open(url: second)

        #expect(router.pendingLink == second)
        #expect(router.deepLinks.heldLink?.heldAt == clock.date)
        #expect(router.deepLinks.linkLog.last?.event == .dropped)
        #expect(router.deepLinks.linkLog.last?.url == first)
        #expect(router.deepLinks.linkLog.last?.reason == "replaced by the newer link 'myapp://editor/second'")

        rules.isLoggedIn = true
        rules.isPremium = true
        #expect(router.deepLinks.factsDidChange()?.url == second)
        #expect(router.activeStack.path == [.editor, .detail(id: "second")])
    }

    @Test func aNewerAppliedLinkDropsTheHeldOne() throws {
        let rules = LinkRules()
        let (router, _) = try makeLinkRouter(rules: rules)
        router.open(url: try link("myapp://editor/doc1"))
        #expect(router.open(url: try link("myapp://products/3")).status == .applied)
        #expect(router.pendingLink == nil)
        #expect(router.deepLinks.linkLog.last?.reason == "a newer link, 'myapp://products/3', was applied")
        rules.isLoggedIn = true
        rules.isPremium = true
        #expect(router.deepLinks.factsDidChange() == nil)
        #expect(router.topRoute == .detail(id: "3"))
    }

    @Test func heldLinkIsDroppedAfterTheTimeout() throws {
        let rules = LinkRules()
        let (router, clock) = try makeLinkRouter(rules: rules)
        #expect(router.pendingLinkTimeout == 600)
        let url = try link("myapp://editor/doc1")
        router.open(url: url)

        clock.advance(599)
        #expect(router.pendingLink == url)
        #expect(router.deepLinks.heldLink?.expiry(timeout: 600) == clock.date.addingTimeInterval(1))
        #expect(router.resumePendingLink()?.status == .pending)

        clock.advance(1)
        #expect(router.pendingLink == nil)
        let drop = try #require(router.deepLinks.linkLog.last)
        #expect(drop.event == .dropped)
        #expect(drop.reason?.contains("held for 600 s without being applied (pendingLinkTimeout)") == true)

        rules.isLoggedIn = true
        rules.isPremium = true
        #expect(router.deepLinks.factsDidChange() == nil)
        #expect(router.rootStack.path.isEmpty)
    }

    @Test func shorterTimeoutAppliesToTheHeldLink() throws {
        let (router, clock) = try makeLinkRouter(rules: LinkRules())
        router.pendingLinkTimeout = 60
        router.open(url: try link("myapp://editor/doc1"))
        clock.advance(60)
        #expect(router.resumePendingLink() == nil)
        #expect(router.deepLinks.linkLog.last?.reason?.contains("held for 60 s") == true)
    }

    @Test func dropPendingLinkForgetsTheHeldLink() throws {
        let rules = LinkRules()
        let (router, _) = try makeLinkRouter(rules: rules)
        router.open(url: try link("myapp://editor/doc1"))
        router.deepLinks.dropPendingLink()
        #expect(router.pendingLink == nil)
        #expect(router.deepLinks.linkLog.last?.reason == "dropPendingLink() was called")
        rules.isLoggedIn = true
        #expect(router.deepLinks.factsDidChange() == nil)
    }

    @Test func heldLinkThatIsNoLongerHandledIsDropped() throws {
        let (router, _) = try makeLinkRouter(rules: LinkRules())
        router.open(url: try link("myapp://editor/doc1"))
        router.deepLinks.resolver = FlowDeepLinks<LinkRoute>()
        let retried = try #require(router.resumePendingLink())
        #expect(retried.status == .unhandled)
        #expect(router.pendingLink == nil)
        #expect(router.deepLinks.linkLog.last?.reason?.hasPrefix("it is no longer handled: no deep link pattern") == true)
    }

    @Test func factsChangingWhileALinkIsHandledRetryRightAfter() throws {
        let rules = LinkRules()
        rules.isPremium = true
        let (router, _) = try makeLinkRouter(rules: rules)
        var nested: [FlowDeepLinkResult<LinkRoute>?] = []
        router.observe { event in
            guard case .recorded(let entry) = event, entry.command == .sheet(.login), entry.status == .applied else { return }
            rules.isLoggedIn = true
            nested.append(router.deepLinks.factsDidChange())
        }

        let result = router.open(url: try link("myapp://editor/doc1"))

        #expect(result.status == .pending)
        #expect(nested.count == 1)
        #expect(nested.first == .some(nil))
        #expect(router.pendingLink == nil)
        #expect(router.activeStack.path == [.editor, .detail(id: "doc1")])
        let events = router.deepLinks.linkLog.map(\.event)
        #expect(events == [.attempted(.open, .pending), .attempted(.factsChanged, .applied)])
    }

    @Test func openingALinkFromAHandlerIsRefused() throws {
        let router = LinkRouter(root: .home)
        var inner: FlowDeepLinkResult<LinkRoute>?
        var links = FlowDeepLinks<LinkRoute>()
        try links.add("/outer") { _, _ in
            inner = router.open(url: URL(string: "myapp://inner")!)
            return [.push(.settings)]
        }
        try links.add("/inner") { _, _ in [.push(.paywall)] }
        router.deepLinks.resolver = links

        #expect(router.open(url: try link("myapp://outer")).status == .applied)
        #expect(inner?.status == .unhandled)
        #expect(inner?.reason?.contains("while another deep link was being handled") == true)
        #expect(router.rootStack.path == [.settings])
    }
}
