import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

private enum Screen: Hashable { case home, list, detail(Int), sheet(Int) }

/// Writes SwiftUI makes through the bindings the package hands out: the core decisions that
/// `bindingForPath(stackID:)`, `bindingForPresentedStack(style:)` and `FlowStackView`'s layer
/// bindings call.
@MainActor
struct BindingWriteTests {
    @Test func withoutAppearanceReportsAWriteForAStackThatExistsAppliesAsInTheOriginal() {
        let router = TestRouter(root: .home, path: [.a, .b])
        router.sheet(.picker)
        let sheetID = router.activeStack.id
        #expect(router.bindingDidSetPath([.a], stackID: router.rootStack.id)?.isApplied == true)
        #expect(router.rootStack.path == [.a])
        #expect(router.bindingDidDismiss(presentedID: sheetID)?.isApplied == true)
        #expect(!router.isPresenting)
        #expect(router.bindingDidSetPath([], stackID: sheetID) == nil, "gone: dropped")
    }

    @Test func onceAppearancesAreReportedAPathWriteBeforeTheViewAppearedIsDropped() {
        let router = TestRouter(root: .home, path: [.a, .b])
        router.sheet(.picker)
        let sheetID = router.activeStack.id
        let stackID = router.rootStack.id
        router.viewDidAppear(stackID: sheetID)
        #expect(router.bindingDidSetPath([.a], stackID: stackID) == nil)
        #expect(router.rootStack.path == [.a, .b])
        router.viewDidAppear(stackID: stackID)
        #expect(router.viewHasAppeared(stackID: stackID))
        #expect(router.bindingDidSetPath([.a], stackID: stackID)?.isApplied == true)
        #expect(router.rootStack.path == [.a])
        #expect(router.history.last?.source == .user)
    }

    @Test func aPathWriteForAStackThatIsGoneIsDropped() {
        let router = TestRouter(root: .home)
        router.sheet(.picker, path: [.a])
        let sheetID = router.activeStack.id
        router.viewDidAppear(stackID: sheetID)
        router.dismiss()
        router.sheet(.picker, path: [.a])
        #expect(router.bindingDidSetPath([], stackID: sheetID) == nil)
        #expect(router.activeStack.path == [.a], "the stack now in its place is untouched")
        #expect(!router.viewHasAppeared(stackID: sheetID))
    }

    @Test func aDismissalWriteDismissesTheStackTheBindingWasMadeForNeverALaterOne() {
        let router = TestRouter(root: .home)
        router.sheet(.picker)
        let first = router.frontPresentedStack(style: .sheet)?.id
        router.viewDidAppear(stackID: first!)
        router.fullScreenCover(.editor)
        router.sheet(.a)
        let later = router.activeStack.id
        router.viewDidAppear(stackID: later)
        #expect(router.frontPresentedStack(style: .sheet)?.id == later)
        // SwiftUI writes nil late, through the binding made while `first` was the front sheet.
        #expect(router.bindingDidDismiss(presentedID: first)?.isApplied == true)
        #expect(!router.containsStack(id: first!))
        #expect(router.bindingDidDismiss(presentedID: first) == nil, "gone: dropped")
    }

    @Test func aDismissalWriteForAPresentationThatNeverAppearedIsDropped() {
        let router = TestRouter(root: .home)
        router.sheet(.picker)
        let sheet = router.frontPresentedStack(style: .sheet)?.id
        router.viewDidAppear(stackID: router.rootStack.id)
        #expect(router.bindingDidDismiss(presentedID: sheet) == nil)
        #expect(router.isPresenting)
        #expect(router.bindingDidDismiss(presentedID: nil) == nil, "a binding that showed nothing")
        router.viewDidAppear(stackID: router.rootStack.id)
        #expect(router.bindingDidDismiss(presentedID: router.rootStack.id) == nil, "never the root stack")
        #expect(router.frontPresentedStack(style: .fullScreenCover) == nil)
    }

    @Test func appearanceOfAStackThatDoesNotExistIsIgnored() {
        let router = TestRouter(root: .home)
        let stranger = UUID()
        router.viewDidAppear(stackID: stranger)
        #expect(!router.viewHasAppeared(stackID: stranger))
        #expect(router.bindingDidSetPath([.a], stackID: stranger) == nil)
    }

    @Test func theLayersWritesGoThroughThePlayerWhichDropsUnshownAndUnappearedStacks() {
        let router = FlowRouter<Screen, String>(root: .home, path: [.list])
        router.sheet(.sheet(1))
        var player = FlowStagingPlayer(launching: router.stacks)
        let (root, sheet) = (router.stacks[0], router.stacks[1])
        player.stackDidAppear(sheet.id)
        #expect(!player.appearedStacks.contains(sheet.id), "not shown yet: its appearance is not recorded")
        #expect(!player.acceptsWrite(forStack: root.id), "the root has not appeared yet")
        do {
            let accepted = player.userDidSetPath([], inStack: root.id)
            #expect(!accepted)
        }
        player.stackDidAppear(root.id)
        #expect(player.acceptsWrite(forStack: root.id))
        player.advance(now: 0)
        let early = player.userDidDismiss(stackID: sheet.id, now: 0)
        #expect(!early, "the sheet never appeared")
        #expect(player.shown.count == 2)
        player.stackDidAppear(sheet.id)
        do {
            let accepted = player.userDidDismiss(stackID: sheet.id, now: 0)
            #expect(accepted)
        }
        #expect(!player.acceptsWrite(forStack: sheet.id), "no longer shown")
        do {
            let accepted = player.userDidSetPath([], inStack: sheet.id)
            #expect(!accepted)
        }
        let rootDismissed = player.userDidDismiss(stackID: root.id, now: 0)
        #expect(!rootDismissed, "never the root stack")
    }
}
