import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// Presenting, dismissing and targeting stacks.
@MainActor
struct RouterPresentationTests {
    @Test func sheetPresentsANewActiveStackWithItsOwnPath() {
        let router = TestRouter(root: .home, path: [.a])
        #expect(router.sheet(.picker, path: [.detail(1)]))
        #expect(router.isPresenting)
        #expect(router.stacks.count == 2)
        #expect(router.activeIndex == 1)
        #expect(router.activeStack.root == .picker)
        #expect(router.activeStack.path == [.detail(1)])
        #expect(router.activeStack.style == .sheet)
        #expect(!router.activeStack.isRoot)
        #expect(router.activeStack.options == FlowPresentationOptions())
        #expect(router.activeStack.options.allowsInteractiveDismiss)
        #expect(router.activeStack.options.clearsNestedPresentationOnDismiss)
        #expect(router.rootStack.path == [.a])
        #expect(router.history.last?.operation == .present(.picker, style: .sheet))
    }

    @Test func fullScreenCoverKeepsItsStyleAndOptions() {
        let router = TestRouter(root: .home)
        let options = FlowPresentationOptions(allowsInteractiveDismiss: false, clearsNestedPresentationOnDismiss: false)
        #expect(router.fullScreenCover(.editor, path: [.a], options: options))
        #expect(router.activeStack.style == .fullScreenCover)
        #expect(router.activeStack.options == options)
        #expect(!router.activeStack.options.allowsInteractiveDismiss)
        #expect(router.history.last?.command?.kindName == "fullScreenCover")
        #expect(router.history.last?.command?.options == options)
    }

    @Test func presentWithAnExplicitStyle() {
        let router = TestRouter(root: .home)
        #expect(router.present(.picker))
        #expect(router.activeStack.style == .sheet)
        #expect(router.present(.editor, style: .fullScreenCover))
        #expect(router.activeStack.style == .fullScreenCover)
        #expect(router.stacks.map(\.style) == [.root, .sheet, .fullScreenCover])
    }

    @Test func presentingWithTheRootStyleFails() {
        let router = TestRouter(root: .home)
        let result = router.perform(.present(.picker, style: .root))
        #expect(result.status == .failed)
        #expect(result.reason?.contains("setRoot") == true)
        #expect(router.stacks.count == 1)
    }

    @Test func presentationsNestToDepthFiveEachWithItsOwnPath() {
        let router = TestRouter(root: .home)
        for level in 1...5 {
            #expect(router.present(.step(level), style: level.isMultiple(of: 2) ? .fullScreenCover : .sheet, path: [.detail(level)]))
            #expect(router.push(.detail(level * 10)))
        }
        #expect(router.stacks.count == 6)
        for level in 1...5 {
            #expect(router.stacks[level].root == .step(level))
            #expect(router.stacks[level].path == [.detail(level), .detail(level * 10)])
        }
        #expect(router.rootStack.path.isEmpty)
        #expect(Set(router.stacks.map(\.id)).count == 6)
        #expect(Set(router.allScreenIDs).count == router.allScreenIDs.count)
        #expect(router.topRoute == .detail(50))
    }

    @Test func dismissRemovesOnlyTheActiveStack() {
        let router = TestRouter(root: .home)
        router.sheet(.picker)
        router.fullScreenCover(.editor)
        #expect(router.dismiss())
        #expect(router.stacks.count == 2)
        #expect(router.activeStack.root == .picker)
    }

    @Test func dismissingAMiddleStackRemovesItAndEverythingAbove() {
        let router = TestRouter(root: .home)
        router.sheet(.picker)
        router.sheet(.a)
        let middle = router.activeStack.id
        router.fullScreenCover(.editor)
        router.sheet(.b)
        #expect(router.dismiss(.stack(middle)))
        #expect(router.stacks.map(\.root) == [.home, .picker])
        #expect(!router.containsStack(id: middle))
    }

    @Test func dismissWithoutClearingNestedRemovesOnlyThatStack() {
        let router = TestRouter(root: .home)
        router.sheet(.picker, options: FlowPresentationOptions(clearsNestedPresentationOnDismiss: false))
        let sheetID = router.activeStack.id
        router.fullScreenCover(.editor, path: [.a])
        let coverID = router.activeStack.id
        #expect(router.dismiss(.stack(sheetID)))
        #expect(router.stacks.count == 2)
        #expect(router.activeStack.id == coverID)
        #expect(router.activeStack.path == [.a])
    }

    @Test func dismissingTheRootStackIsNothingToDismiss() {
        let router = TestRouter(root: .home, path: [.a])
        #expect(!router.dismiss(.root))
        #expect(router.history.last?.status == .nothingToDismiss)
        #expect(!router.dismiss())
        #expect(router.history.last?.status == .nothingToDismiss)
        #expect(!router.dismiss(.stack(router.rootStack.id)))
        #expect(router.history.last?.status == .nothingToDismiss)
        #expect(router.rootStack.path == [.a])
    }

    @Test func dismissAllKeepsTheRootStacksPath() {
        let router = TestRouter(root: .home)
        router.push(.detail(1), on: .root)
        let rootStackID = router.rootStack.id
        router.sheet(.picker, path: [.a])
        router.fullScreenCover(.editor)
        #expect(router.dismissAll())
        #expect(router.stacks.count == 1)
        #expect(router.rootStack.id == rootStackID)
        #expect(router.rootStack.path == [.detail(1)])
        #expect(!router.dismissAll())
        #expect(router.history.last?.status == .nothingToDismiss)
    }

    @Test func targetsNameTheRootTheActiveOrAGivenStack() {
        let router = TestRouter(root: .home)
        router.sheet(.picker)
        let middle = router.activeStack.id
        router.sheet(.editor)
        #expect(router.push(.a, on: .root))
        #expect(router.push(.b))
        #expect(router.push(.c, on: .active))
        #expect(router.push(.settings, on: .stack(middle)))
        #expect(router.rootStack.path == [.a])
        #expect(router.stacks[1].path == [.settings])
        #expect(router.activeStack.path == [.b, .c])
    }

    @Test func aMissingStackIsStackNotFound() {
        let router = TestRouter(root: .home, path: [.a])
        let missing = UUID()
        for operation: FlowOperation<TestRoute> in [
            .push(.b, target: .stack(missing)), .pop(count: 1, target: .stack(missing)),
            .popToRoot(target: .stack(missing)), .popTo(.a, match: .exclusive, target: .stack(missing)),
            .replaceCurrent(.b, target: .stack(missing)), .pushRemovingPrevious(.b, target: .stack(missing)),
            .replacePath(root: .b, path: [], target: .stack(missing)), .dismiss(target: .stack(missing)),
        ] {
            let result = router.perform(operation)
            #expect(result.status == .stackNotFound)
            #expect(result.reason?.contains(missing.uuidString) == true)
        }
        #expect(router.rootStack.path == [.a])
        #expect(router.history.count == 8)
        #expect(router.history.allSatisfy { $0.status == .stackNotFound })
    }

    @Test func aDismissedStackCanNoLongerBeTargeted() {
        let router = TestRouter(root: .home)
        router.sheet(.picker)
        let sheetID = router.activeStack.id
        router.dismiss()
        #expect(!router.push(.a, on: .stack(sheetID)))
        #expect(router.history.last?.status == .stackNotFound)
        #expect(router.rootStack.path.isEmpty)
    }

    @Test func afterADismissActionsGoToTheNewActiveStack() {
        let router = TestRouter(root: .home)
        router.sheet(.picker)
        router.fullScreenCover(.editor)
        router.dismiss()
        router.push(.a)
        #expect(router.stacks[1].path == [.a])
        router.dismiss()
        router.push(.b)
        #expect(router.rootStack.path == [.b])
    }
}
