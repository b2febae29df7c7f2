import Foundation
import Testing
@testable import FlowStackCore

private enum Screen: Hashable, Codable, FlowRouteConvertible { case home, list, detail(Int), sheet(Int), cover(Int) }

/// A rules hook that only styles: it stands in for the Lua engine's style rules.
@MainActor
private final class StyleOnlyHook: FlowRulesHook {
    var generation: Int { 1 }
    func decide(_ request: FlowRuleRequest) -> FlowRuleDecision { .allow }
    func style(for context: FlowStyleContext, hook: FlowStyleHook) -> FlowStyleAttributes? {
        switch hook {
        case .screen:
            return context.screenDepth > 0 ? FlowStyleAttributes(navigationBarHidden: false) : nil
        case .stack:
            return FlowStyleAttributes(tint: context.presentationStyle == .sheet ? .named(.purple) : .named(.blue))
        case .modal:
            return FlowStyleAttributes(interactiveDismissDisabled: false)
        }
    }
}

@MainActor
private func styledRouter() -> FlowRouter<Screen, String> {
    let router = FlowRouter<Screen, String>(root: .home, path: [.list, .detail(1)])
    router.installRules(StyleOnlyHook())
    router.addStyleRule(.screen) { context in
        guard case .detail(let id)? = context.screenRoute(as: Screen.self) else { return nil }
        return FlowStyleAttributes(navigationTitle: "Detail \(id) at \(context.stackIndex)/\(context.screenDepth)")
    }
    router.addStyleRule(.modal) { context in
        context.presentationStyle == .sheet ? FlowStyleAttributes(presentationDetents: [.medium, .large]) : nil
    }
    return router
}

/// The one style resolver, `shownStyle`: what the SwiftUI host draws (also while a staged
/// transition plays) and what `resolvedStyle` (a flow's `router.style`) returns.
@MainActor
struct ShownStyleTests {
    @Test func resolvedStylesAreWhatTheAppShowsForTheRoutersStacks() throws {
        let router = styledRouter()
        router.sheet(.sheet(1), path: [.detail(2)])
        router.fullScreenCover(.cover(1), path: [.list], options: FlowPresentationOptions(allowsInteractiveDismiss: false))
        let defaults = FlowStyleAttributes(navigationBarHidden: true, multilineTextAlignment: .center)
        var checked = 0
        for (index, stack) in router.stacks.enumerated() {
            let nodes: [FlowRouteNode<Screen>?] = [nil] + stack.navigationPath.map { $0 }
            for (depth, node) in nodes.enumerated() {
                let resolved = try #require(router.resolvedStyle(stackIndex: index, screenDepth: depth, screenDefaults: defaults))
                let screen = try #require(router.shownStyle(.screen, stackIndex: index, screen: node, in: router.stacks, screenDefaults: defaults))
                #expect(screen.attributes == resolved.screen)
                #expect(screen.context == router.styleContext(stackIndex: index, screenDepth: depth))
                #expect(router.shownStyle(.stack, stackIndex: index, in: router.stacks)?.attributes == resolved.stack)
                #expect(router.shownStyle(.modal, stackIndex: index, in: router.stacks)?.attributes == resolved.modal)
                if index == 2 {
                    #expect(resolved.modal?.interactiveDismissDisabled == true,
                            "the presenting code refused a swipe-down; the rules' false cannot allow one")
                } else if index == 1 {
                    #expect(resolved.modal?.interactiveDismissDisabled == false, "the rules decide where the presenter allowed it")
                }
                checked += 1
            }
        }
        #expect(checked == 3 + 2 + 2)
    }

    @Test func whileStagingContextsFollowTheShownStacks() throws {
        let router = styledRouter()
        router.fullScreenCover(.cover(1))
        let shown = router.stacks
        router.dismissAll()
        router.sheet(.sheet(2))
        let stack = try #require(router.shownStyle(.stack, stackIndex: 1, in: shown))
        #expect(stack.context.presentationStyle == .fullScreenCover)
        #expect(stack.context.rootRoute(as: Screen.self) == .cover(1))
        #expect(stack.attributes.tint == .named(.blue))
        #expect(router.shownStyle(.modal, stackIndex: 1, in: shown)?.attributes.presentationDetents == nil)
        #expect(router.shownStyle(.modal, stackIndex: 1, in: router.stacks)?.attributes.presentationDetents == [.medium, .large])
        #expect(router.shownStyle(.modal, stackIndex: 0, in: shown) == nil)
        #expect(router.shownStyle(.stack, stackIndex: 2, in: shown) == nil)
        #expect(router.shownStyle(.screen, stackIndex: 2, in: shown) == nil)
    }

    @Test func aScreenAnimatingOutKeepsItsRouteAboveTheTop() throws {
        let router = styledRouter()
        let leaving = router.stacks[0].navigationPath[1]
        router.pop()
        let style = try #require(router.shownStyle(.screen, stackIndex: 0, screen: leaving, in: router.stacks))
        #expect(style.context.screenDepth == 2)
        #expect(style.context.screenRoute(as: Screen.self) == .detail(1))
        #expect(style.attributes.navigationTitle == "Detail 1 at 0/2")
        #expect(style.attributes.navigationBarHidden == false)
        #expect(style.attributes.multilineTextAlignment == .leading, "FlowStack's defaults apply")
    }

    @Test func theRootScreenHasDepthZeroAndTheDefaults() throws {
        let router = styledRouter()
        let root = try #require(router.shownStyle(.screen, stackIndex: 0, in: router.stacks))
        #expect(root.context.isRootScreen && root.context.isRootStack)
        #expect(root.attributes == .flowStackScreenDefaults)
    }

    @Test func aNodeIsIgnoredOutsideTheScreenHook() throws {
        let router = styledRouter()
        let node = router.stacks[0].navigationPath[1]
        let stack = try #require(router.shownStyle(.stack, stackIndex: 0, screen: node, in: router.stacks))
        #expect(stack.context == router.styleContext(stackIndex: 0, screenDepth: 0))
    }
}
