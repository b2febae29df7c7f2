import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// The rules hook: allow, block, redirect, failure policy and what it is asked.
@MainActor
struct RouterRulesHookTests {
    typealias Hook = ScriptedRulesHook<TestRoute>

    @Test func withoutAHookGenerationIsZero() {
        let router = TestRouter(root: .home)
        let result = router.perform(.push(.a, target: .active))
        #expect(result.isApplied)
        #expect(result.generation == 0)
        #expect(router.history.last?.generation == 0)
    }

    @Test func anAllowingHookIsAskedWithTheRequest() {
        let router = TestRouter(root: .home, path: [.a])
        router.showGlobalDialog(TestDialog("first"))
        router.showGlobalDialog(TestDialog("second"), policy: .queue)
        let hook = Hook(generation: 4)
        router.installRules(hook)
        let before = router.stacks
        let result = router.perform(.push(.b, target: .active), source: .deeplink)
        #expect(result.isApplied)
        #expect(result.generation == 4)
        #expect(hook.requests.count == 1)
        let request = hook.requests[0]
        #expect(request.kind == .push)
        #expect(request.typedRoutes(as: TestRoute.self) == [.b])
        #expect(request.source == .deeplink)
        #expect(!request.isAsync)
        #expect(request.typedStacks(as: TestRoute.self) == before.map(\.routes))
        #expect(request.runsDefaultPreconditions)
        #expect(request.dialog == "first")
        #expect(request.queuedDialogCount == 1)
        #expect(request.redirectChain.isEmpty)
        #expect(request.target == 1)
        #expect(router.history.last?.generation == 4)
    }

    @Test func aBlockCarriesItsReasonAndStage() {
        let router = TestRouter(root: .home)
        let hook = Hook { request in
            switch request.typedRoutes(as: TestRoute.self).first {
            case .editor: Hook.blocked("premium required")
            case .settings: Hook.blocked("login required", stage: .precondition)
            case .login: Hook.blocked("rules.lua:3: boom", stage: .error)
            default: .allow
            }
        }
        router.installRules(hook)
        let guarded = router.perform(.push(.editor, target: .active))
        #expect(guarded.status == .blockedByGuard)
        #expect(guarded.reason == "premium required")
        #expect(router.perform(.push(.settings, target: .active)).status == .blockedByPrecondition)
        let failed = router.perform(.push(.login, target: .active))
        #expect(failed.status == .failed)
        #expect(failed.reason == "rules.lua:3: boom")
        #expect(!router.push(.editor))
        #expect(router.activeStack.path.isEmpty)
        #expect(router.history.map(\.reason) == ["premium required", "login required", "rules.lua:3: boom", "premium required"])
    }

    @Test func theHookRunsOnlyAfterTheSwiftChecksPass() {
        let router = TestRouter(root: .home)
        let hook = Hook()
        router.installRules(hook)
        router.setDefaultPrecondition(for: .push) { _, _ in false }
        router.push(.a)
        router.guardOperation = { _ in false }
        router.sheet(.picker)
        router.pop()
        #expect(hook.requests.isEmpty)
        router.guardOperation = nil
        router.sheet(.picker)
        #expect(hook.requests.count == 1)
    }

    @Test func aRedirectBlocksAndRunsTheTarget() {
        let router = TestRouter(root: .home)
        router.installRules(Hook { request in
            request.typedRoutes(as: TestRoute.self).contains(.editor)
                ? Hook.redirect(to: FlowCommand(.present(.paywall, style: .fullScreenCover)), reason: "premium required")
                : .allow
        })
        let result = router.perform(.push(.editor, target: .active))
        #expect(result.status == .redirected)
        #expect(result.reason == "premium required")
        #expect(!result.isApplied)
        #expect(result.redirect?.isApplied == true)
        #expect(result.redirect?.operation == .present(.paywall, style: .fullScreenCover))
        #expect(result.redirectApplied)
        #expect(router.topRoute == .paywall)
        #expect(router.rootStack.path.isEmpty)
        #expect(router.history.map(\.status) == [.redirected, .applied])
        #expect(!router.push(.editor))
    }

    @Test func aRedirectWithoutAReasonDescribesItsTarget() {
        let router = TestRouter(root: .home)
        router.installRules(Hook { request in
            request.typedRoutes(as: TestRoute.self) == [.editor] ? Hook.redirect(to: FlowCommand(.push(.login, target: .active))) : .allow
        })
        let result = router.perform(.push(.editor, target: .active))
        #expect(result.reason == "redirected to push login")
    }

    @Test func theRedirectTargetIsCheckedByTheRules() {
        let router = TestRouter(root: .home)
        let hook = Hook { request in
            switch request.typedRoutes(as: TestRoute.self).first {
            case .editor: Hook.redirect(to: FlowCommand(.push(.login, target: .active)))
            case .login: Hook.blocked("login is closed")
            default: .allow
            }
        }
        router.installRules(hook)
        let result = router.perform(.push(.editor, target: .active))
        #expect(result.status == .redirected)
        #expect(result.redirect?.status == .blockedByGuard)
        #expect(result.redirect?.reason == "login is closed")
        #expect(!result.redirectApplied)
        #expect(router.activeStack.path.isEmpty)
        #expect(hook.requests.count == 2)
        #expect(hook.requests[1].redirectChain == [FlowCommand<TestRoute>(.push(.editor, target: .active)).summary])
        #expect(hook.requests[1].runsDefaultPreconditions)
    }

    @Test func theRedirectTargetIsCheckedByTheSwiftPreconditionsToo() {
        let router = TestRouter(root: .home)
        router.setDefaultPrecondition(for: .present) { _, _ in false }
        router.installRules(Hook { request in
            request.typedRoutes(as: TestRoute.self) == [.editor]
                ? Hook.redirect(to: FlowCommand(.present(.paywall, style: .sheet)))
                : .allow
        })
        // The one-off condition of the original call does not carry over to the redirect.
        let result = router.perform(.push(.editor, target: .active)) { _, _ in true }
        #expect(result.status == .redirected)
        #expect(result.redirect?.status == .blockedByPrecondition)
        #expect(!router.isPresenting)
    }

    @Test func eightChainedRedirectsAreAllowed() {
        let router = TestRouter(root: .home)
        router.installRules(Hook { request in
            guard case .step(let n)? = request.typedRoutes(as: TestRoute.self).first, n < 8 else { return .allow }
            return Hook.redirect(to: FlowCommand(.push(.step(n + 1), target: .active)))
        })
        let result = router.perform(.push(.step(0), target: .active))
        #expect(result.redirectApplied)
        #expect(router.activeStack.path == [.step(8)])
        #expect(router.history.count == 9)
    }

    @Test func aNinthRedirectIsAFailureReportedWithTheChain() {
        let router = TestRouter(root: .home)
        router.installRules(Hook { request in
            guard case .step(let n)? = request.typedRoutes(as: TestRoute.self).first else { return .allow }
            return Hook.redirect(to: FlowCommand(.push(.step(n + 1), target: .active)))
        })
        let result = router.perform(.push(.step(0), target: .active))
        #expect(!result.redirectApplied)
        var last = result
        var depth = 0
        while let next = last.redirect { last = next; depth += 1 }
        #expect(depth == 8)
        #expect(last.status == .failed)
        let reason = last.reason
        #expect(reason?.contains("redirect loop") == true)
        #expect(reason?.contains("push step(0) → push step(1)") == true)
        #expect(reason?.contains("push step(8) → push step(9)") == true)
        #expect(router.activeStack.path.isEmpty)
        #expect(router.history.last?.status == .failed)
    }

    @Test func aRedirectLoopBetweenTwoRoutesFails() {
        let router = TestRouter(root: .home)
        router.installRules(Hook { request in
            switch request.typedRoutes(as: TestRoute.self).first {
            case .a: Hook.redirect(to: FlowCommand(.push(.b, target: .active)))
            case .b: Hook.redirect(to: FlowCommand(.push(.a, target: .active)))
            default: .allow
            }
        })
        #expect(!router.push(.a))
        #expect(router.history.last?.status == .failed)
        #expect(router.history.last?.reason?.contains("push a → push b → push a") == true)
        #expect(router.activeStack.path.isEmpty)
    }

    @Test func allowAfterFailureAppliesAndRecordsTheReason() {
        let router = TestRouter(root: .home)
        router.installRules(Hook { _ in .allowAfterFailure("rules.lua:9: attempt to index a nil value") })
        let result = router.perform(.push(.a, target: .active))
        #expect(result.isApplied)
        #expect(result.reason == "rules.lua:9: attempt to index a nil value")
        #expect(router.history.last?.status == .applied)
        #expect(router.history.last?.reason == result.reason)
        #expect(router.activeStack.path == [.a])
    }

    @Test func aOneOffConditionTellsTheHookToSkipItsDefaults() {
        let router = TestRouter(root: .home)
        let hook = Hook()
        router.installRules(hook)
        router.push(.a)
        router.push(.b) { _, _ in true }
        #expect(hook.requests.map(\.runsDefaultPreconditions) == [true, false])
    }

    @Test func theHookSeesPushManyAsOneRequest() {
        let router = TestRouter(root: .home)
        let hook = Hook { request in request.typedRoutes(as: TestRoute.self).contains(.paywall) ? Hook.blocked("no") : .allow }
        router.installRules(hook)
        #expect(!router.push(contentsOf: [.a, .paywall]))
        #expect(hook.requests.count == 1)
        #expect(hook.requests[0].kind == .pushMany)
        #expect(router.activeStack.path.isEmpty)
    }

    @Test func navigatingFromInsideADecisionIsRefused() {
        let router = TestRouter(root: .home)
        var inner: FlowOperationResult<TestRoute>?
        router.installRules(Hook { request in
            if request.typedRoutes(as: TestRoute.self) == [.a] {
                inner = router.perform(.push(.b, target: .active))
            }
            return .allow
        })
        #expect(router.push(.a))
        #expect(inner?.status == .failed)
        #expect(inner?.reason?.contains("redirect") == true)
        #expect(router.activeStack.path == [.a])
        #expect(router.history.count == 1)
    }

    @Test func theGenerationInForceIsRecorded() {
        let router = TestRouter(root: .home)
        let hook = Hook(generation: 1)
        router.installRules(hook)
        router.push(.a)
        hook.generation = 2
        router.push(.b)
        router.showGlobalDialog(TestDialog("d"))
        #expect(router.history.map(\.generation) == [1, 2, 2])
        #expect(router.operationHistory.map(\.generation) == [1, 2])
    }
}
