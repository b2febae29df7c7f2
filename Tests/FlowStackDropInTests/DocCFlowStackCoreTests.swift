// The FlowStackCore DocC landing page's snippet, with `import FlowStack` (which re-exports the
// core): it must compile unchanged and its assertion must hold.
import FlowStack
import Testing

private enum Route: Hashable { case home, projects, detail(id: String), paywall }

@MainActor private func demo() -> FlowRouter<Route, String> {
    let router = FlowRouter<Route, String>(root: .home)
    router.push(.projects)
    router.push(.detail(id: "42"))
    router.fullScreenCover(.paywall)
    // Two stacks now: the root one (home, projects, detail 42) and the paywall cover.
    assert(router.stacks.count == 2 && router.topRoute == .paywall)
    router.dismiss()
    router.popToRoot()
    return router
}

@Suite("DocC: FlowStackCore")
@MainActor
struct DocCFlowStackCoreTests {
    @Test("the landing page's demo runs: two stacks, then back to the root")
    func landingDemo() {
        let router = demo()
        #expect(router.stacks.count == 1)
        #expect(router.topRoute == .home)
        #expect(router.history.count == 5)
        #expect(router.history.allSatisfy { $0.status == .applied })
    }
}
