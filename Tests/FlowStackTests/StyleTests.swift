import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// Style as data: contexts, resolution order and defaults.
@MainActor
struct StyleTests {
    @Test func theRootScreenContext() throws {
        let router = TestRouter(root: .home, path: [.a, .b])
        let context = try #require(router.styleContext(stackIndex: 0, screenDepth: 0))
        #expect(context.stackIndex == 0)
        #expect(context.stackID == router.rootStack.id)
        #expect(context.presentationStyle == .root)
        #expect(context.isRootStack)
        #expect(context.screenDepth == 0)
        #expect(context.isRootScreen)
        #expect(context.rootRoute(as: TestRoute.self) == .home)
        #expect(context.screenRoute(as: TestRoute.self) == .home)
    }

    @Test func aPushedScreenContext() throws {
        let router = TestRouter(root: .home, path: [.a, .b])
        let context = try #require(router.styleContext(stackIndex: 0, screenDepth: 2))
        #expect(context.screenDepth == 2)
        #expect(!context.isRootScreen)
        #expect(context.screenRoute(as: TestRoute.self) == .b)
        #expect(context.rootRoute(as: TestRoute.self) == .home)
        #expect(router.styleContext(stackIndex: 0, screenDepth: 1)?.screenRoute(as: TestRoute.self) == .a)
        #expect(context.screenRoute(as: String.self) == nil)
        #expect(context.rootRoute(as: Int.self) == nil)
    }

    @Test func aPresentedStackContext() throws {
        let router = TestRouter(root: .home)
        router.fullScreenCover(.editor, path: [.c])
        let context = try #require(router.styleContext(stackIndex: 1, screenDepth: 1))
        #expect(context.stackIndex == 1)
        #expect(!context.isRootStack)
        #expect(context.stackID == router.activeStack.id)
        #expect(context.presentationStyle == .fullScreenCover)
        #expect(context.rootRoute(as: TestRoute.self) == .editor)
        #expect(context.screenRoute(as: TestRoute.self) == .c)
    }

    @Test func thereIsNoContextOutsideTheStacks() {
        let router = TestRouter(root: .home, path: [.a])
        #expect(router.styleContext(stackIndex: 0, screenDepth: 2) == nil)
        #expect(router.styleContext(stackIndex: 0, screenDepth: -1) == nil)
        #expect(router.styleContext(stackIndex: 1, screenDepth: 0) == nil)
        #expect(router.styleContext(stackIndex: -1, screenDepth: 0) == nil)
        #expect(router.resolvedStyle(stackIndex: 3, screenDepth: 0) == nil)
    }

    @Test func theDefaultsAreFlowStacks() throws {
        let router = TestRouter(root: .home)
        let style = try #require(router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(style.screen.navigationBarHidden == true)
        #expect(style.screen.multilineTextAlignment == .leading)
        #expect(style.screen == .flowStackScreenDefaults)
        #expect(style.stack.isEmpty)
        #expect(style.modal == nil)
        let custom = try #require(router.resolvedStyle(stackIndex: 0, screenDepth: 0, screenDefaults: FlowStyleAttributes(navigationTitle: "T")))
        #expect(custom.screen == FlowStyleAttributes(navigationTitle: "T"))
    }

    @Test func swiftRulesRunInOrderAndLaterKeysWin() throws {
        let router = TestRouter(root: .home, path: [.a])
        router.addStyleRule(.screen) { _ in FlowStyleAttributes(tint: .named(.red), navigationTitle: "first") }
        router.addStyleRule(.screen) { _ in nil }
        router.addStyleRule(.screen) { context in
            context.isRootScreen ? nil : FlowStyleAttributes(navigationBarHidden: false, tint: .named(.blue))
        }
        let pushed = try #require(router.resolvedStyle(stackIndex: 0, screenDepth: 1))
        #expect(pushed.screen.tint == .named(.blue))
        #expect(pushed.screen.navigationTitle == "first")
        #expect(pushed.screen.navigationBarHidden == false)
        #expect(pushed.screen.multilineTextAlignment == .leading)
        let root = try #require(router.resolvedStyle(stackIndex: 0, screenDepth: 0))
        #expect(root.screen.tint == .named(.red))
        #expect(root.screen.navigationBarHidden == true)

        router.removeAllStyleRules()
        #expect(router.resolvedStyle(stackIndex: 0, screenDepth: 1)?.screen == .flowStackScreenDefaults)
    }

    @Test func theRulesHookStylesAfterTheSwiftRules() throws {
        let router = TestRouter(root: .home)
        router.sheet(.picker, path: [.a])
        router.addStyleRule(.screen) { _ in FlowStyleAttributes(tint: .named(.red), background: .named(.white)) }
        router.addStyleRule(.stack) { _ in FlowStyleAttributes(tint: .named(.red)) }
        let hook = ScriptedRulesHook<TestRoute>()
        var asked: [FlowStyleHook] = []
        hook.styler = { context, kind in
            asked.append(kind)
            return kind == .screen ? FlowStyleAttributes(tint: .named(.green)) : nil
        }
        router.installRules(hook)
        let style = try #require(router.resolvedStyle(stackIndex: 1, screenDepth: 1))
        #expect(style.screen.tint == .named(.green))
        #expect(style.screen.background == .named(.white))
        #expect(style.stack.tint == .named(.red))
        #expect(Set(asked) == [.screen, .stack, .modal])
    }

    @Test func modalStyleExistsOnlyForPresentedStacks() throws {
        let router = TestRouter(root: .home)
        router.sheet(.picker, path: [.a])
        var modalContexts: [FlowStyleContext] = []
        router.addStyleRule(.modal) { context in
            modalContexts.append(context)
            return FlowStyleAttributes(presentationDragIndicator: context.stackIndex > 0 ? .visible : .hidden)
        }
        #expect(router.resolvedStyle(stackIndex: 0, screenDepth: 0)?.modal == nil)
        let sheet = try #require(router.resolvedStyle(stackIndex: 1, screenDepth: 1))
        #expect(sheet.modal?.presentationDragIndicator == .visible)
        #expect(modalContexts.count == 1)
        #expect(modalContexts[0].screenDepth == 0)
        #expect(modalContexts[0].screenRoute(as: TestRoute.self) == .picker)
    }

    @Test func stackRulesSeeTheStacksRootContext() throws {
        let router = TestRouter(root: .editor, path: [.a, .b])
        router.addStyleRule(.stack) { context in
            context.rootRoute(as: TestRoute.self) == .editor && context.isRootScreen
                ? FlowStyleAttributes(tint: .named(.orange)) : nil
        }
        #expect(router.resolvedStyle(stackIndex: 0, screenDepth: 2)?.stack.tint == .named(.orange))
    }

    @Test func mergingWritesOnlySetValues() {
        let base = FlowStyleAttributes(navigationBarHidden: true, tint: .named(.red), presentationDetents: [.medium])
        let over = FlowStyleAttributes(
            multilineTextAlignment: .center, tint: .named(.blue), background: .named(.clear), preferredColorScheme: .dark,
            presentationDragIndicator: .hidden, presentationDetents: [.large], interactiveDismissDisabled: true,
            navigationBarBackButtonHidden: true, navigationTitle: "x"
        )
        let merged = base.merging(over)
        #expect(merged.navigationBarHidden == true)
        #expect(merged == FlowStyleAttributes(
            navigationBarHidden: true, multilineTextAlignment: .center, tint: .named(.blue), background: .named(.clear),
            preferredColorScheme: .dark, presentationDragIndicator: .hidden, presentationDetents: [.large],
            interactiveDismissDisabled: true, navigationBarBackButtonHidden: true, navigationTitle: "x"
        ))
        #expect(base.merging(nil) == base)
        #expect(base.merging(FlowStyleAttributes()) == base)
        #expect(FlowStyleAttributes().isEmpty)
        #expect(!base.isEmpty)
    }
}
