import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// The global dialog: policies, the queue, and how changes are recorded.
@MainActor
struct RouterDialogTests {
    let a = TestDialog("a"), b = TestDialog("b"), c = TestDialog("c"), urgent = TestDialog("urgent")

    @Test func replaceShowsTheDialogAndClearsTheQueue() {
        let router = TestRouter(root: .home)
        #expect(router.requestGlobalDialog(a, policy: .queue))
        #expect(router.requestGlobalDialog(b, policy: .queue))
        #expect(router.requestGlobalDialog(c, policy: .queue))
        #expect(router.queuedGlobalDialogCount == 2)
        #expect(router.requestGlobalDialog(urgent))
        #expect(router.globalDialog == urgent)
        #expect(router.queuedGlobalDialogCount == 0)
        router.hideGlobalDialog()
        #expect(router.globalDialog == nil)
    }

    @Test func replaceKeepingQueueShowsNowAndKeepsTheQueue() {
        let router = TestRouter(root: .home)
        router.showGlobalDialog(a, policy: .queue)
        router.showGlobalDialog(b, policy: .queue)
        #expect(router.requestGlobalDialog(urgent, policy: .replaceKeepingQueue))
        #expect(router.globalDialog == urgent)
        #expect(router.queuedGlobalDialogs == [b])
        router.hideGlobalDialog()
        #expect(router.globalDialog == b)
        #expect(router.queuedGlobalDialogCount == 0)
    }

    @Test func replaceKeepingQueueWithNothingVisibleShowsTheDialog() {
        let router = TestRouter(root: .home)
        #expect(router.requestGlobalDialog(a, policy: .replaceKeepingQueue))
        #expect(router.globalDialog == a)
        #expect(router.queuedGlobalDialogCount == 0)
    }

    @Test func queueShowsWhenNothingIsVisibleThenQueuesInOrder() {
        let router = TestRouter(root: .home)
        #expect(router.requestGlobalDialog(a, policy: .queue))
        #expect(router.globalDialog == a)
        #expect(router.queuedGlobalDialogCount == 0)
        router.showGlobalDialog(b, policy: .queue)
        router.showGlobalDialog(c, policy: .queue)
        #expect(router.queuedGlobalDialogs == [b, c])
        router.hideGlobalDialog()
        #expect(router.globalDialog == b)
        #expect(router.queuedGlobalDialogCount == 1)
        router.hideGlobalDialog()
        #expect(router.globalDialog == c)
        router.hideGlobalDialog()
        #expect(router.globalDialog == nil)
        #expect(router.queuedGlobalDialogCount == 0)
    }

    @Test func ignoreIfVisibleShowsOnlyWhenNothingIsVisible() {
        let router = TestRouter(root: .home)
        #expect(router.requestGlobalDialog(a, policy: .ignoreIfVisible))
        #expect(router.globalDialog == a)
        #expect(!router.requestGlobalDialog(b, policy: .ignoreIfVisible))
        #expect(router.globalDialog == a)
        #expect(router.queuedGlobalDialogCount == 0)
        let entry = router.history.last
        #expect(entry?.status == .ignored)
        #expect(entry?.dialogChange?.action == .show(.ignoreIfVisible))
        #expect(entry?.dialogChange?.dialog == "b")
        #expect(entry?.dialogChange?.visibleAfter == "a")
    }

    @Test func clearGlobalDialogsRemovesTheVisibleAndQueuedDialogs() {
        let router = TestRouter(root: .home)
        router.showGlobalDialog(a, policy: .queue)
        router.showGlobalDialog(b, policy: .queue)
        router.clearGlobalDialogs()
        #expect(router.globalDialog == nil)
        #expect(router.queuedGlobalDialogCount == 0)
        #expect(router.history.last?.status == .applied)
        router.hideGlobalDialog()
        #expect(router.globalDialog == nil)
        router.clearGlobalDialogs()
        #expect(Array(router.history.suffix(2)).map(\.status) == [.ignored, .ignored])
    }

    @Test func dialogChangesAreRecordedInTheHistory() {
        let router = TestRouter(root: .home, path: [.a])
        router.showGlobalDialog(a, policy: .queue)
        router.showGlobalDialog(b, policy: .queue)
        router.hideGlobalDialog()
        router.clearGlobalDialogs()
        let changes = router.history.compactMap(\.dialogChange)
        #expect(changes.map(\.action) == [.show(.queue), .show(.queue), .hide, .clear])
        #expect(changes.map(\.dialog) == ["a", "b", "a", nil])
        #expect(changes.map(\.visibleAfter) == ["a", "a", "b", nil])
        #expect(changes.map(\.queuedAfter) == [0, 1, 0, 0])
        #expect(router.history.allSatisfy { $0.command == nil && $0.source == .code })
        #expect(router.history.allSatisfy { $0.previousStacks == router.stacks && $0.newStacks == router.stacks })
        #expect(router.operationHistory.isEmpty)
    }

    @Test func hidingWithNothingVisibleIsIgnored() {
        let router = TestRouter(root: .home)
        router.hideGlobalDialog()
        #expect(router.history.last?.status == .ignored)
        #expect(router.history.last?.dialogChange?.dialog == nil)
    }

    @Test func theUIReportsAPersonClosingTheDialog() {
        let router = TestRouter(root: .home)
        router.showGlobalDialog(a)
        router.userDidHideGlobalDialog()
        #expect(router.globalDialog == nil)
        #expect(router.history.last?.source == .user)
        #expect(router.history.last?.status == .applied)
    }

    @Test func aDialogThatIsNotIdentifiableIsRecordedByItsDescription() {
        let router = FlowRouter<TestRoute, String>(root: .home)
        router.showGlobalDialog("session expired")
        #expect(router.globalDialog == "session expired")
        #expect(router.history.last?.dialogChange?.dialog == "session expired")
    }

    @Test func theRulesSeeTheDialogState() {
        let router = TestRouter(root: .home)
        let hook = ScriptedRulesHook<TestRoute> { request in
            request.dialog == nil ? .allow : ScriptedRulesHook<TestRoute>.blocked("a dialog is visible")
        }
        router.installRules(hook)
        #expect(router.push(.a))
        router.showGlobalDialog(a)
        #expect(!router.push(.b))
        #expect(router.history.last?.reason == "a dialog is visible")
    }
}
