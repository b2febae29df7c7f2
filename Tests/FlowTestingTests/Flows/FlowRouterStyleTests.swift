@testable import FlowLua
@testable import FlowScript
@testable import FlowTesting
import FlowStackCore
import Foundation
import Testing

/// A flow's `router.style` returns what the app shows: the SwiftUI layer's resolver
/// (`shownStyle`) for the same router state, including what the presenting code forces.
@MainActor
struct FlowRouterStyleTests {
    static let rules = """
        flow.style.screen(function(c) return { navigationTitle = c.screenRoute.name } end)
        flow.style.stack(function(c) return { tint = "blue" } end)
        flow.style.modal(function(c) return { interactiveDismissDisabled = false, presentationDetents = { "medium" } } end)
        """

    @Test func routerStyleEqualsTheShownStyleIncludingAForcedInteractiveDismissDisabled() throws {
        let runner = try FlowProjectFixture.runner([:], rules: Self.rules)
        let router = try runner.currentRouter()
        #expect(router.sheet(FlowRouteValue("login"), path: [FlowRouteValue("home")]))
        #expect(router.fullScreenCover(FlowRouteValue("login"), options: FlowPresentationOptions(allowsInteractiveDismiss: false)))
        let vm = try LuaVM()
        try runner.registerQueries(in: vm)
        var checked = 0
        for (index, stack) in router.stacks.enumerated() {
            let nodes: [FlowRouteNode<FlowRouteValue>?] = [nil] + stack.navigationPath.map { $0 }
            for (depth, node) in nodes.enumerated() {
                let screen = try #require(router.shownStyle(.screen, stackIndex: index, screen: node, in: router.stacks))
                let stackStyle = try #require(router.shownStyle(.stack, stackIndex: index, in: router.stacks))
                let modal = router.shownStyle(.modal, stackIndex: index, in: router.stacks)
                let shown = FlowResolvedStyle(screen: screen.attributes, stack: stackStyle.attributes, modal: modal?.attributes)
                let flow = try vm.run(source: "return router.style(\(index + 1), \(depth))", chunkName: "=flow")
                #expect(flow == [shown.luaValue], "stack \(index + 1), depth \(depth)")
                checked += 1
            }
        }
        #expect(checked == 1 + 2 + 1)
        let sheet = try vm.run(source: "return router.style(2, 0).modal.interactiveDismissDisabled", chunkName: "=flow")
        #expect(sheet == [.boolean(false)], "the rules decide where the presenter allowed a swipe-down")
        let cover = try vm.run(source: "return router.style(3, 0).modal.interactiveDismissDisabled", chunkName: "=flow")
        #expect(cover == [.boolean(true)], "the presenter refused a swipe-down; the rules' false cannot allow one")
    }
}
