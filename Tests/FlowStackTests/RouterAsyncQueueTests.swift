import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// The serialized async queue: FIFO order, checks at the head, spacing, cancellation.
@MainActor
struct RouterAsyncQueueTests {
    @Test func fiftyConcurrentPushesApplyInArrivalOrder() async {
        let router = TestRouter(root: .home)
        // Earlier requests take longer to check: without a strict FIFO queue they would finish last.
        router.setDefaultAsyncPrecondition(for: .push) { operation, _ in
            guard case .step(let n)? = operation.routes.first else { return false }
            try? await Task.sleep(nanoseconds: UInt64(50 - n) * 100_000)
            return true
        }
        var tasks: [Task<Bool, Never>] = []
        for n in 0..<50 {
            tasks.append(Task { await router.pushAsync(.step(n)) })
        }
        var results: [Bool] = []
        for task in tasks { results.append(await task.value) }
        #expect(results == Array(repeating: true, count: 50))
        #expect(router.activeStack.path == (0..<50).map { TestRoute.step($0) })
        #expect(router.history.map(\.sequence) == Array(1...50))
        #expect(router.queuedTransitionCount == 0)
    }

    @Test func checksRunAtTheHeadOfTheQueueAgainstTheStateThen() async {
        let router = TestRouter(root: .home)
        let gate = AsyncGate()
        var seenDepths: [Int] = []
        let first = Task {
            await router.pushAsync(.a) { _, stacks in
                seenDepths.append(stacks[0].pathCount)
                await gate.wait()
                return true
            }
        }
        await yieldUntil { gate.waitingCount == 1 }
        let second = Task {
            await router.pushAsync(.b) { _, stacks in
                seenDepths.append(stacks[0].pathCount)
                return stacks[0].topRoute != .a
            }
        }
        await yieldUntil { router.queuedTransitionCount == 1 }
        #expect(router.queuedTransitionCount == 1)
        #expect(seenDepths == [0])
        gate.open()
        #expect(await first.value)
        #expect(!(await second.value))
        #expect(seenDepths == [0, 1])
        #expect(router.activeStack.path == [.a])
        #expect(router.navigationOutcomes == [.applied, .blockedByPrecondition])
    }

    @Test func defaultAsyncPreconditionsBlockAndSeeTheOperation() async {
        let router = TestRouter(root: .home)
        var seen: [FlowOperation<TestRoute>] = []
        router.setDefaultAsyncPrecondition(for: .push) { operation, previous in
            seen.append(operation)
            return previous[0].root != .home
        }
        #expect(!(await router.pushAsync(.settings)))
        #expect(seen == [.push(.settings, target: .active)])
        #expect(router.activeStack.path.isEmpty)
        #expect(router.operationHistory.last?.status == .blockedByPrecondition)
        #expect(router.history.last?.reason?.contains("async precondition") == true)
        #expect(await router.sheetAsync(.picker))
    }

    @Test func aOneOffAsyncConditionReplacesEveryDefault() async {
        let router = TestRouter(root: .home)
        router.setDefaultAsyncPrecondition(for: .present) { _, _ in false }
        router.setDefaultPrecondition(for: .present) { _, _ in false }
        let presented = await router.sheetAsync(.picker) { operation, previous in
            operation == .present(.picker, style: .sheet) && previous.count == 1
        }
        #expect(presented)
        #expect(router.activeStack.root == .picker)
        #expect(!(await router.fullScreenCoverAsync(.editor) { _, _ in false }))
        #expect(router.history.last?.reason == "the call's condition returned false")
    }

    @Test func asyncChecksRunPreconditionsBeforeTheGuard() async {
        let router = TestRouter(root: .home)
        var order: [String] = []
        router.setDefaultPrecondition(for: .push) { _, _ in order.append("sync"); return true }
        router.setDefaultAsyncPrecondition(for: .push) { _, _ in order.append("async"); return true }
        router.guardOperation = { _ in order.append("guard"); return false }
        #expect(!(await router.pushAsync(.a)))
        #expect(order == ["sync", "async", "guard"])
        #expect(router.history.last?.status == .blockedByGuard)

        order.removeAll()
        #expect(!(await router.pushAsync(.a) { _, _ in order.append("one-off"); return true }))
        #expect(order == ["one-off", "guard"])
    }

    @Test func theTransitionDelaySpacesConsecutiveTransitions() async {
        let router = TestRouter(root: .home)
        let delay: UInt64 = 20_000_000
        router.queuedTransitionDelayNanoseconds = delay
        let clock = ContinuousClock()
        var appliedAt: [ContinuousClock.Instant] = []
        router.didApplyOperation = { _, _ in appliedAt.append(clock.now) }
        let start = clock.now
        async let first = router.pushAsync(.a)
        async let second = router.sheetAsync(.picker)
        async let third = router.pushAsync(.b)
        let results = await [first, second, third]
        #expect(results == [true, true, true])
        #expect(router.stacks.count == 2)
        #expect(appliedAt.count == 3)
        let minimum = Duration.nanoseconds(Int64(delay))
        for index in 1..<appliedAt.count {
            #expect(appliedAt[index] - appliedAt[index - 1] >= minimum)
        }
        #expect(clock.now - start >= minimum * 3)
    }

    @Test func aCancelledWaitingTaskIsSkippedAndRecorded() async {
        let router = TestRouter(root: .home)
        let gate = AsyncGate()
        let head = Task { await router.pushAsync(.a) { _, _ in await gate.wait(); return true } }
        await yieldUntil { gate.waitingCount == 1 }
        var victimChecked = false
        let victim = Task {
            await router.performAsync(FlowCommand(.push(.b, target: .active))) { _, _ in
                victimChecked = true
                return true
            }
        }
        let tail = Task { await router.pushAsync(.c) }
        await yieldUntil { router.queuedTransitionCount == 2 }
        victim.cancel()
        gate.open()
        let cancelled = await victim.value
        #expect(await head.value)
        #expect(await tail.value)
        #expect(cancelled.status == .cancelled)
        #expect(cancelled.reason?.contains("cancelled") == true)
        #expect(!victimChecked)
        #expect(router.activeStack.path == [.a, .c])
        #expect(router.navigationOutcomes == [.applied, .cancelled, .applied])
    }

    @Test func queuedRunsAClosureAsOneTurnOfTheQueue() async {
        let router = TestRouter(root: .home)
        let gate = AsyncGate()
        let head = Task { await router.pushAsync(.a) { _, _ in await gate.wait(); return true } }
        await yieldUntil { gate.waitingCount == 1 }
        var ranWhileHeadWaited = false
        let middle = Task {
            await router.queued {
                ranWhileHeadWaited = router.activeStack.path.isEmpty
                return router.push(.b)
            }
        }
        let tail = Task { await router.pushAsync(.c) }
        await yieldUntil { router.queuedTransitionCount == 2 }
        gate.open()
        #expect(await head.value)
        #expect(await middle.value)
        #expect(await tail.value)
        #expect(!ranWhileHeadWaited)
        #expect(router.activeStack.path == [.a, .b, .c])
        #expect(!(await router.queued { false }))
    }

    @Test func anAsyncHookMayRedirect() async {
        let router = TestRouter(root: .home)
        let hook = ScriptedRulesHook<TestRoute>()
        hook.asyncDecider = { request in
            await Task.yield()
            return request.typedRoutes(as: TestRoute.self) == [.editor]
                ? ScriptedRulesHook<TestRoute>.redirect(to: FlowCommand(.present(.login, style: .sheet)), reason: "sign in first")
                : .allow
        }
        router.installRules(hook)
        let result = await router.performAsync(FlowCommand(.push(.editor, target: .active)))
        #expect(result.status == .redirected)
        #expect(result.reason == "sign in first")
        #expect(result.redirect?.isApplied == true)
        #expect(router.topRoute == .login)
        #expect(hook.requests.map(\.isAsync) == [true, true])
        #expect(router.history.map(\.status) == [.redirected, .applied])
    }

    @Test func anAsyncHookMayBlock() async {
        let router = TestRouter(root: .home)
        let hook = ScriptedRulesHook<TestRoute>()
        hook.asyncDecider = { _ in
            try? await Task.sleep(nanoseconds: 1_000_000)
            return .block(FlowRuleBlock(stage: .precondition, reason: "no permission"))
        }
        router.installRules(hook)
        #expect(!(await router.pushAsync(.a)))
        #expect(router.history.last?.status == .blockedByPrecondition)
        #expect(router.history.last?.reason == "no permission")
    }

    @Test func theStateIsCheckedAgainAfterTheChecksSuspend() async {
        let router = TestRouter(root: .home)
        router.sheet(.picker)
        let sheetID = router.activeStack.id
        let gate = AsyncGate()
        let request = Task {
            await router.performAsync(FlowCommand(.push(.a, target: .stack(sheetID)))) { _, _ in
                await gate.wait()
                return true
            }
        }
        await yieldUntil { gate.waitingCount == 1 }
        router.dismiss()
        gate.open()
        let result = await request.value
        #expect(result.status == .stackNotFound)
        #expect(router.rootStack.path.isEmpty)
    }

    @Test func everyAsyncActionGoesThroughTheQueue() async {
        let router = TestRouter(root: .splash)
        #expect(await router.setRootAsync(.home, path: [.a]))
        #expect(await router.pushAsync(contentsOf: [.b, .c, .b]))
        #expect(await router.pushAsync(contentsOf: []))
        #expect(await router.pushRemovingPreviousAsync(.settings))
        #expect(router.rootStack.path == [.a, .b, .c, .settings])
        #expect(await router.replaceCurrentAsync(with: .editor))
        #expect(await router.popToAsync(.b))
        #expect(router.rootStack.path == [.a, .b])
        #expect(!(await router.popToAsync(.detail(3))))
        #expect(await router.popAsync())
        #expect(await router.popAsync(count: 0))
        #expect(await router.popToRootAsync())
        #expect(router.rootStack.path.isEmpty)
        #expect(await router.replacePathAsync(root: .home, path: [.c]))
        #expect(await router.presentAsync(.picker, style: .fullScreenCover, path: [.a]))
        #expect(await router.sheetAsync(.picker))
        #expect(await router.fullScreenCoverAsync(.editor))
        #expect(router.stacks.map(\.style) == [.root, .fullScreenCover, .sheet, .fullScreenCover])
        #expect(await router.dismissAsync())
        #expect(await router.dismissAllAsync())
        #expect(!(await router.dismissAsync()))
        #expect(router.stacks.count == 1)
        #expect(router.rootStack.path == [.c])
        #expect(router.history.last?.status == .nothingToDismiss)
        #expect(router.history.count == 15)
    }

    @Test func asyncPushManyIsAllOrNothing() async {
        let router = TestRouter(root: .home)
        let applied = await router.pushAsync(contentsOf: [.a, .paywall, .b]) { operation, _ in
            operation.routes != [.paywall]
        }
        #expect(!applied)
        #expect(router.activeStack.path.isEmpty)
    }
}
