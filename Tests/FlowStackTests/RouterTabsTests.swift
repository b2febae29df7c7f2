import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// The app's tab type in these tests.
enum TestTab: String, FlowTab, CaseIterable {
    case feed, search, profile
}

/// A router with tabs: a root stack per tab, tab selection as a navigation.
@MainActor
struct RouterTabsTests {
    func tabbedRouter() -> TestRouter {
        TestRouter(tabs: [TestTab.feed: .home, .search: .a, .profile: .settings])
    }

    @Test func theFirstTabIsSelectedAtStart() {
        let router = tabbedRouter()
        #expect(router.hasTabs)
        #expect(router.tabNames == ["feed", "search", "profile"])
        #expect(router.selectedTab(as: TestTab.self) == .feed)
        #expect(router.stacks.count == 1)
        #expect(router.rootStack.root == .home)
        #expect(router.tabs.map(\.stack.root) == [.home, .a, .settings])
    }

    @Test func eachTabKeepsItsOwnStack() {
        let router = tabbedRouter()
        #expect(router.push(.detail(1)))
        #expect(router.selectTab(TestTab.search))
        #expect(router.rootStack.root == .a)
        #expect(router.rootStack.path.isEmpty)
        #expect(router.push(.b))
        #expect(router.selectTab(TestTab.feed))
        #expect(router.rootStack.path == [.detail(1)])
        #expect(router.stack(ofTab: "search")?.path == [.b])
    }

    @Test func reselectingTheSelectedTabPopsItToItsRoot() {
        let router = tabbedRouter()
        router.push(.detail(1))
        router.push(.detail(2))
        let id = router.rootStack.id
        #expect(router.selectTab(TestTab.feed))
        #expect(router.rootStack.path.isEmpty)
        #expect(router.rootStack.id == id)
    }

    @Test func presentationsStayAboveTheTabBar() {
        let router = tabbedRouter()
        router.sheet(.picker)
        #expect(router.selectTab(TestTab.search))
        #expect(router.stacks.count == 2)
        #expect(router.rootStack.root == .a)
        #expect(router.activeStack.root == .picker)
    }

    @Test func setRootReplacesTheSelectedTabsRootOnly() {
        let router = tabbedRouter()
        router.selectTab(TestTab.search)
        #expect(router.setRoot(.editor))
        #expect(router.stack(ofTab: "search")?.root == .editor)
        #expect(router.stack(ofTab: "feed")?.root == .home)
    }

    @Test func anUnknownTabIsRefusedWithDidYouMean() {
        let router = tabbedRouter()
        let result = router.perform(.selectTab("serch"))
        #expect(result.status == .stackNotFound)
        #expect(result.reason?.contains("did you mean 'search'") == true)
        #expect(router.selectedTabName == "feed")
    }

    @Test func aRouterWithoutTabsRefusesATabSelection() {
        let router = TestRouter(root: .home)
        #expect(!router.hasTabs)
        #expect(router.tabs.isEmpty)
        #expect(router.selectedTabName == nil)
        let result = router.perform(.selectTab("feed"))
        #expect(result.status == .stackNotFound)
        #expect(router.state.problem == nil)
    }

    @Test func guardTabSelectionRefusesATab() {
        let router = tabbedRouter()
        router.guardTabSelection = { $0 != "profile" }
        let result = router.perform(.selectTab("profile"))
        #expect(result.status == .blockedByGuard)
        #expect(router.selectedTabName == "feed")
        #expect(router.selectTab(TestTab.search))
    }

    @Test func theGuardAndPreconditionsOfOperationsDoNotSeeTabSelections() {
        let router = tabbedRouter()
        router.guardOperation = { _ in false }
        router.setDefaultPrecondition(for: .popToRoot) { _, _ in false }
        #expect(router.selectTab(TestTab.search))
        #expect(!router.push(.b))
    }

    @Test func theHistoryNamesTabSelections() {
        let router = tabbedRouter()
        router.selectTab(TestTab.search)
        router.selectTab(TestTab.search)
        let commands = router.history.compactMap(\.command)
        #expect(commands.map(\.summary) == ["selectTab search", "selectTab search"])
        #expect(commands.map(\.kindName) == ["selectTab", "selectTab"])
        #expect(FlowRuleKind(commands[0]) == .selectTab)
    }

    @Test func aTabSelectionRunsThroughTheAsyncQueue() async {
        let router = tabbedRouter()
        #expect(await router.selectTabAsync(TestTab.profile))
        #expect(router.selectedTab(as: TestTab.self) == .profile)
    }

    @Test func aRolledBackTransactionRestoresTheSelectedTab() {
        let router = tabbedRouter()
        router.guardOperation = { operation in
            if case .push(.b, _) = operation { return false }
            return true
        }
        let result = router.transaction { router in
            router.selectTab(TestTab.search)
            router.push(.b)
        }
        #expect(!result.isCommitted)
        #expect(router.selectedTabName == "feed")
        #expect(router.rootStack.root == .home)
    }

    @Test func aTabbedStateSurvivesACodableRoundTripAndRestores() throws {
        let router = tabbedRouter()
        router.push(.detail(1))
        router.selectTab(TestTab.search)
        router.push(.b)
        router.sheet(.picker)
        let data = try JSONEncoder().encode(router.state)
        let decoded = try JSONDecoder().decode(FlowRouterState<TestRoute, TestDialog>.self, from: data)
        #expect(decoded == router.state)
        #expect(decoded.selectedTab == "search")
        let restored = try TestRouter(state: decoded)
        #expect(restored.selectedTabName == "search")
        #expect(restored.stacks.count == 2)
        #expect(restored.selectTab(TestTab.feed))
        #expect(restored.rootStack.path == [.detail(1)])
        #expect(restored.stack(ofTab: "search")?.path == [.b])
    }

    @Test func statesWithOtherTabsAreNotEqual() {
        let one = tabbedRouter()
        let other = tabbedRouter()
        one.selectTab(TestTab.search)
        one.selectTab(TestTab.feed)
        #expect(one.state.tabs.map(\.name) == other.state.tabs.map(\.name))
        one.selectTab(TestTab.search)
        #expect(one.state != other.state)
    }

    @Test func aMalformedTabbedStateIsRefused() {
        let router = tabbedRouter()
        var tabs = router.state.tabs
        tabs[1].name = "feed"
        let state = FlowRouterState<TestRoute, TestDialog>(
            stacks: router.stacks, rootID: router.rootID, tabs: tabs, selectedTab: 0)
        #expect(state.problem?.contains("two tabs are named 'feed'") == true)
        #expect(throws: FlowStateError.self) { try router.restore(state) }
    }

    @Test func rulesSeeTheTabAndTheSelectedTab() {
        let router = tabbedRouter()
        let hook = ScriptedRulesHook<TestRoute>(generation: 1)
        router.installRules(hook)
        router.selectTab(TestTab.search)
        router.push(.b)
        #expect(hook.requests.map(\.kind) == [.selectTab, .push])
        #expect(hook.requests.map(\.tab) == ["search", nil])
        #expect(hook.requests.map(\.selectedTab) == ["feed", "search"])
    }

    @Test func aRuleRedirectToATabSelectsIt() {
        let router = tabbedRouter()
        let hook = ScriptedRulesHook<TestRoute>(generation: 1) { request in
            request.kind == .push
                ? .redirect(FlowRuleTarget.selectTab("profile"), FlowRuleBlock(stage: .guard, reason: "profile first"))
                : .allow
        }
        router.installRules(hook)
        let result = router.perform(FlowCommand(.push(.b, target: .active)))
        #expect(result.status == .redirected)
        #expect(router.selectedTabName == "profile")
        #expect(router.rootStack.root == .settings)
    }
}
