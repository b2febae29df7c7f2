import FlowStack
import Foundation
import Testing

/// The original FlowStack's behaviour through its own API (the app in OriginalAPIApp.swift).
@Suite("Drop-in for the original FlowStack")
@MainActor
struct FlowStackDropInTests {
    @Test("the original's calls run, and its history reports the three outcomes")
    func originalCallsRun() async {
        let router = FlowRouter<ShopRoute, ShopDialog>(root: .home)
        let seen = await driveShop(router)
        #expect(seen.contains("applied push product(id: 4) active"))
        #expect(seen.contains("guard dismissAll"))
        router.push(.cart, condition: { _, _ in false })
        #expect(router.operationHistory.last?.outcome == .blockedByPrecondition)
        #expect(router.globalDialog == nil)
        #expect(originalValues().count == 11)
    }

    @Test("every finer status is one of the original's three outcomes")
    func statusSummaries() {
        let all: [FlowOperationStatus] = [
            .applied, .blockedByPrecondition, .blockedByGuard, .redirected, .failed, .stackNotFound,
            .routeNotFound, .nothingToPop, .nothingToDismiss, .cancelled, .rolledBack, .ignored,
        ]
        let summaries = all.map(FlowOperationOutcome.init)
        #expect(summaries.filter { $0 == .applied } == [.applied])
        #expect(summaries.filter { $0 == .blockedByPrecondition } == [.blockedByPrecondition])
        #expect(summaries.filter { $0 == .blockedByGuard }.count == all.count - 2)
        for outcome in [FlowOperationOutcome.applied, .blockedByPrecondition, .blockedByGuard] {
            #expect(FlowOperationOutcome(FlowOperationStatus(outcome)) == outcome)
        }
    }

    @Test("a record keeps the finer status beside the original's outcome")
    func recordStatus() {
        let router = FlowRouter<ShopRoute, ShopDialog>(root: .home)
        router.pop()
        let record = router.operationHistory.last
        #expect(record?.status == .nothingToPop)
        #expect(record?.outcome == .blockedByGuard)
        #expect(router.history.last?.outcome == .blockedByGuard)
    }

    @Test("router.hideGlobalDialog is one method: its reference hides the dialog")
    func hideReference() {
        let router = FlowRouter<ShopRoute, ShopDialog>(root: .home)
        router.showGlobalDialog(ShopDialog(id: "a"))
        router.showGlobalDialog(ShopDialog(id: "b"), policy: .queue)
        let hide = router.hideGlobalDialog
        hide()
        #expect(router.globalDialog?.id == "b")
        router.userDidHideGlobalDialog()
        #expect(router.globalDialog == nil)
        #expect(router.history.last?.source == .user)
    }

    @Test("router.showGlobalDialog stores as the original's (Dialog, FlowDialogPolicy) -> Void")
    func showReference() {
        let router = FlowRouter<ShopRoute, ShopDialog>(root: .home)
        let show: (ShopDialog, FlowDialogPolicy) -> Void = router.showGlobalDialog
        show(ShopDialog(id: "a"), .replace)
        show(ShopDialog(id: "b"), .queue)
        #expect(router.globalDialog?.id == "a")
        #expect(router.queuedGlobalDialogCount == 1)
    }

    @Test("the $ publishers' values are the router's")
    func publisherValues() {
        let router = FlowRouter<ShopRoute, ShopDialog>(root: .home)
        router.push(.cart)
        typealias Publishers = FlowRouterPublishers<ShopRoute, ShopDialog>
        #expect(router[dynamicMember: \Publishers.stacks] == router.stacks)
        #expect(router[dynamicMember: \Publishers.rootID] == router.rootID)
        #expect(router[dynamicMember: \Publishers.globalDialog] == nil)
        #expect(router[dynamicMember: \Publishers.operationHistory].count == 1)
    }
}
