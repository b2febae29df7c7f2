// The FlowStack DocC article "The SwiftUI Host" (and docs/swiftui-host.md, which says the same):
// its style snippet compiles with `import FlowStack` (and SwiftUI, or its Linux stand-in), and
// what it says of the root, the bindings and the style holds through the public API.
import FlowStack
import Foundation
import Testing
#if canImport(SwiftUI)
import SwiftUI
#else
import SwiftUIStandIn
#endif

private enum AppRoute: Hashable, Codable, FlowRouteConvertible {
    case home, projects, settings, paywall
    case detail(id: String)
}

@Suite("DocC: The SwiftUI Host")
@MainActor
struct DocCSwiftUIHostTests {
    @Test("the style snippet compiles and draws through FlowStackView")
    func styleSnippet() {
        let style = FlowNavigationStyle.default
            .navigationBarHidden(false)
            .screenStyle { view, context in view.background(context.isRootScreen ? Color.white : Color.gray) }
            .modalStyle { view in view.presentationDragIndicator(.visible) }
        #expect(style.hidesNavigationBar == false)
        let router = FlowRouter<AppRoute, String>(root: .home)
        let view = FlowStackView(router: router, style: style) { route in Text("\(route)") } destination: { route in Text("\(route)") }
        _ = view
    }

    @Test("setRoot(_:refreshIfSameRoute: false) keeps the root stack's id, rootID and shared screens; true or another route makes a new one")
    func rootKeepsItsViews() {
        let router = FlowRouter<AppRoute, String>(root: .home)
        router.push(.projects)
        router.push(.detail(id: "1"))
        router.sheet(.settings)
        let before = router.rootStack
        #expect(router.setRoot(.home, refreshIfSameRoute: false))
        #expect(router.rootStack.id == before.id)
        #expect(router.rootStack.rootID == before.rootID)
        #expect(router.stacks.count == 1, "presentations change")

        router.push(.projects)
        let projectsID = router.rootStack.topID
        #expect(router.setRoot(.home, path: [.projects, .detail(id: "2")], refreshIfSameRoute: false))
        #expect(router.rootStack.navigationPath.first?.id == projectsID, "the screens the paths share stay")

        #expect(router.setRoot(.home))
        #expect(router.rootStack.id != before.id)
        let refreshed = router.rootStack.id
        #expect(router.setRoot(.projects, refreshIfSameRoute: false))
        #expect(router.rootStack.id != refreshed)
    }

    // The stand-in's Binding does not run (it needs SwiftUI's runtime), so the writes are made
    // through the core's functions the bindings call: bindingDidSetPath and bindingDidDismiss.
    @Test("binding writes: a write for a stack that is gone is dropped; a swipe-down is the person's own")
    func bindingWrites() {
        let router = FlowRouter<AppRoute, String>(root: .home)
        router.sheet(.settings)
        router.guardOperation = { _ in false }   // the person's own gestures skip every check
        let sheetID = router.activeStack.id
        _ = router.bindingForPath(stackID: sheetID)
        _ = router.bindingForPresentedStack(style: .sheet)
        #expect(router.frontPresentedStack(style: .sheet)?.id == sheetID)
        #expect(router.bindingDidSetPath([.detail(id: "1")], stackID: sheetID)?.isApplied == true)
        #expect(router.activeStack.path == [.detail(id: "1")])
        #expect(router.history.last?.source == .user)

        #expect(router.bindingDidDismiss(presentedID: sheetID)?.isApplied == true)
        #expect(router.stacks.count == 1)
        #expect(router.history.last?.source == .user)

        // The stack is gone: the writes of the bindings made for it are dropped.
        router.guardOperation = nil
        router.sheet(.paywall)
        let before = router.stacks
        #expect(router.bindingDidSetPath([.projects], stackID: sheetID) == nil)
        #expect(router.bindingDidDismiss(presentedID: sheetID) == nil)
        #expect(router.stacks == before)
    }

    @Test("once the app reports its views, a write before a stack's view appeared is dropped")
    func writesBeforeAppearance() {
        let router = FlowRouter<AppRoute, String>(root: .home)
        router.viewDidAppear(stackID: router.rootStack.id)
        router.sheet(.settings)
        let sheetID = router.activeStack.id
        #expect(router.bindingDidDismiss(presentedID: sheetID) == nil)
        #expect(router.stacks.count == 2, "the sheet's view never appeared: SwiftUI's nil is dropped")
        router.viewDidAppear(stackID: sheetID)
        #expect(router.bindingDidDismiss(presentedID: sheetID)?.isApplied == true)
        #expect(router.stacks.count == 1)

        // Without any report, every write for a stack that exists applies.
        let plain = FlowRouter<AppRoute, String>(root: .home)
        plain.sheet(.settings)
        #expect(plain.bindingDidDismiss(presentedID: plain.activeStack.id)?.isApplied == true)
        #expect(plain.stacks.count == 1)
    }

    @Test("style rules are merged over the screen defaults; a stack presented without interactive dismiss keeps it disabled")
    func styleMerge() throws {
        let router = FlowRouter<AppRoute, String>(root: .home)
        router.addStyleRule(.screen) { context in
            var attributes = FlowStyleAttributes()
            if context.isRootScreen { attributes.navigationTitle = "Root" }
            return attributes
        }
        router.addStyleRule(.modal) { _ in
            var attributes = FlowStyleAttributes()
            attributes.interactiveDismissDisabled = false
            return attributes
        }
        router.fullScreenCover(.paywall, options: FlowPresentationOptions(allowsInteractiveDismiss: false))
        let root = try #require(router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(root.screen.navigationTitle == "Root")
        #expect(root.screen.navigationBarHidden == true)
        #expect(root.screen.multilineTextAlignment == .leading)
        let cover = try #require(router.resolvedStyle(stackIndex: 1, screenDepth: 0))
        #expect(cover.modal?.interactiveDismissDisabled == true)
    }
}
