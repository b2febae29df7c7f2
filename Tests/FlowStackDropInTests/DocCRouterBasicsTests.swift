// The FlowStackCore DocC article "Router Basics", its snippets as an app writes them with
// `import FlowStack`: they must compile unchanged and do what the article says. Only what the
// article leaves to the app (`isLoggedIn`, `isPremium`, `requestPhotoAccess`) is filled in here.
import FlowStack
import Foundation
import Testing

private enum AppRoute: Hashable {
    case splash, home, projects, settings, paywall, photoPicker
    case detail(id: String)
    case editor(id: String)
}
private enum AppDialog: Hashable { case networkError, sessionExpired }

/// Routes that cross into Lua, for the tests that install rules.
private enum RuleRoute: Hashable, Codable, FlowRouteConvertible { case home, paywall, editor }

/// The app's sign-in state (the article leaves it to the app).
@MainActor private var isLoggedIn = true
/// The app's purchase state (the article leaves it to the app).
@MainActor private var isPremium = false
/// The photo-permission prompt's answer (the article leaves it to the app).
@MainActor private var photoAccessAnswer = true
/// The app's photo-permission prompt.
@MainActor private func requestPhotoAccess() async -> Bool { photoAccessAnswer }

@Suite("DocC: Router Basics")
@MainActor
struct DocCRouterBasicsTests {
    @Test("stacks and presentations: each action does what its comment says")
    func stacksAndPresentations() {
        let router = FlowRouter<AppRoute, AppDialog>(root: .splash)
        router.push(.settings)
        router.sheet(.settings)

        router.setRoot(.home)                        // a new root stack; every presentation is dropped
        #expect(router.stacks.count == 1 && router.rootStack.root == .home && router.rootStack.path.isEmpty)
        router.push(.projects)
        router.push(contentsOf: [.detail(id: "1"), .editor(id: "1")])   // all or none
        #expect(router.activeStack.path == [.projects, .detail(id: "1"), .editor(id: "1")])
        router.pop()                                 // or pop(count: 2), popToRoot(), popTo(.projects)
        #expect(router.topRoute == .detail(id: "1"))
        router.sheet(.settings)                      // a new stack, presented as a sheet
        #expect(router.stacks.count == 2 && router.activeStack.style == .sheet)
        router.fullScreenCover(.paywall, options: FlowPresentationOptions(allowsInteractiveDismiss: false))
        #expect(router.stacks.count == 3 && router.activeStack.style == .fullScreenCover)
        #expect(router.activeStack.options.allowsInteractiveDismiss == false)
        router.dismiss()                             // the front-most presented stack and those above it
        #expect(router.stacks.count == 2)
        router.dismissAll()
        #expect(router.stacks.count == 1 && !router.isPresenting)

        // The alternatives the comments name.
        router.push(contentsOf: [.editor(id: "2"), .settings])
        #expect(router.pop(count: 2))
        #expect(router.topRoute == .detail(id: "1"))
        #expect(router.popTo(.projects))
        #expect(router.topRoute == .projects)
        #expect(router.popToRoot())
        #expect(router.topRoute == .home)
    }

    @Test("push(contentsOf:) is all or none")
    func pushContentsOfAllOrNone() {
        let router = FlowRouter<AppRoute, AppDialog>(root: .home)
        router.guardOperation = { operation in
            if case .push(.editor, _) = operation { return false }
            return true
        }
        #expect(!router.push(contentsOf: [.detail(id: "1"), .editor(id: "1")]))
        #expect(router.activeStack.path.isEmpty)
    }

    @Test("rewrites in place, the general present, and popping past a presented stack's root")
    func rewritesAndPresent() {
        let router = FlowRouter<AppRoute, AppDialog>(root: .home)
        router.push(.projects)
        #expect(router.replaceCurrent(with: .settings))
        #expect(router.activeStack.path == [.settings])
        #expect(router.pushRemovingPrevious(.detail(id: "3")))
        #expect(router.activeStack.path == [.detail(id: "3")])
        #expect(router.replacePath(root: .home, path: [.projects, .detail(id: "4")]))
        #expect(router.activeStack.path == [.projects, .detail(id: "4")])

        // A presentation may start with its own path.
        #expect(router.present(.settings, style: .sheet, path: [.detail(id: "5")], options: FlowPresentationOptions()))
        #expect(router.activeStack.root == .settings && router.activeStack.path == [.detail(id: "5")])
        // Popping more screens than a presented stack holds dismisses that stack.
        #expect(router.pop(count: 3))
        #expect(router.stacks.count == 1)
    }

    @Test("setRoot with refreshIfSameRoute: false and the same root keeps the root stack's identities")
    func setRootKeepsIdentities() {
        let router = FlowRouter<AppRoute, AppDialog>(root: .home)
        router.push(.projects)
        router.sheet(.settings)
        let before = router.rootStack
        #expect(router.setRoot(.home, path: [.projects], refreshIfSameRoute: false, condition: nil))
        #expect(router.rootStack.id == before.id)
        #expect(router.rootStack.rootID == before.rootID)
        #expect(router.stacks.count == 1)
        #expect(router.setRoot(.home))
        #expect(router.rootStack.id != before.id)
    }

    @Test("preconditions, then the guard, in one order; a one-off condition skips the defaults")
    func preconditionsAndGuard() {
        let router = FlowRouter<AppRoute, AppDialog>(root: .home)
        isLoggedIn = false
        isPremium = false
        defer { isLoggedIn = true }

        router.setDefaultPrecondition(for: .push) { operation, stacks in
            isLoggedIn                              // false blocks every push
        }
        router.guardOperation = { operation in
            if case .push(.editor, _) = operation { return isPremium }
            return true
        }
        router.push(.projects, condition: { _, _ in true })   // this call skips the defaults

        #expect(router.activeStack.path == [.projects])
        #expect(!router.push(.settings))
        #expect(router.history.last?.status == .blockedByPrecondition)
        isLoggedIn = true
        #expect(!router.push(.editor(id: "7")))
        #expect(router.history.last?.status == .blockedByGuard)

        let result = router.perform(.push(.editor(id: "7"), target: .active))
        if !result.isApplied {
            print(result.status, result.reason ?? "")
        }
        #expect(result.status == .blockedByGuard)
        #expect(!result.isApplied)
    }

    @Test("the person's own gestures always apply, with source user")
    func userGestures() {
        let router = FlowRouter<AppRoute, AppDialog>(root: .home)
        router.push(.projects)
        router.sheet(.settings)
        router.guardOperation = { _ in false }
        router.setDefaultPrecondition(for: .pop) { _, _ in false }
        #expect(router.userDidDismiss()?.isApplied == true)
        #expect(router.history.last?.source == .user)
        #expect(router.userDidPop()?.isApplied == true)
        #expect(router.activeStack.path.isEmpty)
        #expect(router.userDidChangePath([.detail(id: "1")], in: router.rootStack.id)?.isApplied == true)
        #expect(router.activeStack.path == [.detail(id: "1")])
    }

    @Test("the async queue: a default async precondition decides sheetAsync")
    func asyncQueue() async {
        let router = FlowRouter<AppRoute, AppDialog>(root: .home)
        router.setDefaultAsyncPrecondition(for: .present) { operation, _ in
            await requestPhotoAccess()
        }
        photoAccessAnswer = false
        #expect(await router.sheetAsync(.photoPicker) == false)
        photoAccessAnswer = true
        let shown = await router.sheetAsync(.photoPicker)
        #expect(shown)
        #expect(router.topRoute == .photoPicker)
        let result = await router.performAsync(.dismiss())
        #expect(result.isApplied)
        #expect(await router.queued { router.push(.projects) })
        #expect(router.topRoute == .projects)
    }

    @Test("a task cancelled while it waits is skipped and recorded as cancelled")
    func cancelledWhileWaiting() async {
        let router = FlowRouter<AppRoute, AppDialog>(root: .home)
        let gate = AsyncGate()
        let first = Task { await router.pushAsync(.projects, condition: { _, _ in await gate.wait(); return true }) }
        await gate.waitUntilWaiting()
        let second = Task { await router.pushAsync(.settings) }
        while router.queuedTransitionCount < 1 { await Task.yield() }
        second.cancel()
        gate.open()
        #expect(await first.value)
        #expect(await second.value == false)
        #expect(router.history.last?.status == .cancelled)
        #expect(router.activeStack.path == [.projects])
    }

    @Test("the history keeps every request; observers see each entry")
    func history() {
        let router = FlowRouter<AppRoute, AppDialog>(root: .home)
        #expect(router.maximumOperationHistoryCount == 200)
        router.guardOperation = { operation in
            if case .push(.paywall, _) = operation { return false }
            return true
        }
        var blocked: [String] = []
        router.push(.projects)
        router.showGlobalDialog(.networkError)
        for entry in router.history {
            print(entry.sequence, entry.command?.summary ?? "dialog", entry.status, entry.reason ?? "")
        }
        #expect(router.history.count == 2)
        #expect(router.history.last?.command == nil)
        let observation = router.observe { event in
            if case .recorded(let entry) = event, entry.status.isBlocked {
                print("blocked:", entry.reason ?? "")
                blocked.append(entry.command?.summary ?? "")
            }
        }
        router.push(.paywall)
        router.removeObserver(observation)
        router.push(.paywall)
        #expect(blocked.count == 1)
        #expect(router.operationHistory.count == 3)

        router.maximumOperationHistoryCount = 2
        router.push(.settings)
        #expect(router.history.count == 2)
        router.maximumOperationHistoryCount = 0
        for _ in 0..<250 { router.push(.settings, condition: { _, _ in false }) }
        #expect(router.history.count == 252)
    }

    @Test("a transaction is all or none; only the blocked step is recorded; a redirect is returned")
    func transactions() {
        let router = FlowRouter<AppRoute, AppDialog>(root: .home)
        router.push(.settings)
        router.guardOperation = { operation in
            if case .push(.detail, _) = operation { return false }
            return true
        }
        let before = router.history.count
        let outcome = router.transaction { router in
            router.popToRoot()
            router.push(.projects)
            router.push(.detail(id: "42"))
        }
        if !outcome.isCommitted {
            print(outcome.reason ?? "")   // "step 3 of 3 (push detail...) was blocked by a guard: ..."
        }
        #expect(!outcome.isCommitted)
        #expect(outcome.reason?.hasPrefix("step 3 of 3 (push detail") == true, "\(outcome.reason ?? "")")
        #expect(outcome.reason?.contains("was blocked by a guard") == true)
        #expect(router.activeStack.path == [.settings])
        #expect(router.history.count == before + 1)
        #expect(outcome.pendingRedirect == nil)
    }

    @Test("targets: .active is the front-most stack, .root the root one, .stack(id) any; an entry keeps the stacks before and after and the rules generation")
    func targetsAndEntries() throws {
        let router = FlowRouter<RuleRoute, AppDialog>(root: .home)
        let engine = try FlowRulesEngine<RuleRoute>(sources: [FlowRulesSource(name: "rules/none.lua", text: "")])
        engine.install(into: router)
        router.sheet(.paywall)
        let sheetID = router.activeStack.id
        #expect(router.push(.editor, on: .root))
        #expect(router.rootStack.path == [.editor] && router.activeStack.path.isEmpty)
        #expect(router.push(.editor))
        #expect(router.activeStack.path == [.editor])
        #expect(router.pop(on: .stack(sheetID)))
        #expect(router.activeStack.path.isEmpty)
        let entry = try #require(router.history.last)
        #expect(entry.previousStacks.last?.path == [.editor] && entry.newStacks.last?.path == [])
        #expect(entry.generation == engine.generation)
        #expect(entry.sequence > router.history.first?.sequence ?? .max)
    }

    @Test("a transaction blocked at a middle step does not attempt the later ones")
    func transactionMiddleStep() {
        let router = FlowRouter<AppRoute, AppDialog>(root: .home)
        var attempted: [FlowOperation<AppRoute>] = []
        router.guardOperation = { operation in
            attempted.append(operation)
            if case .push(.projects, _) = operation { return false }
            return true
        }
        let outcome = router.transaction { router in
            router.push(.settings)
            router.push(.projects)
            router.push(.detail(id: "42"))
        }
        #expect(!outcome.isCommitted)
        #expect(attempted.count == 2, "\(attempted)")
        #expect(outcome.failedStepIndex == 1)
        #expect(outcome.reason?.hasPrefix("step 2 of ") == true, "\(outcome.reason ?? "")")
        #expect(router.activeStack.path.isEmpty)
        #expect(router.history.count == 1)
    }

    @Test("a redirect the blocking rule asks for inside a transaction is returned, not performed")
    func transactionRedirect() throws {
        let router = FlowRouter<RuleRoute, AppDialog>(root: .home)
        let engine = try FlowRulesEngine<RuleRoute>(sources: [FlowRulesSource(name: "rules/paywall.lua", text: """
            flow.guard("editor", function() return flow.redirect("fullScreenCover", "paywall", "premium required") end)
            """)])
        engine.install(into: router)
        let outcome = router.transaction { router in
            router.push(.editor)
        }
        #expect(!outcome.isCommitted)
        #expect(outcome.pendingRedirect == .fullScreenCover(.paywall))
        #expect(router.stacks.count == 1 && router.activeStack.path.isEmpty)
    }

    @Test("the global dialog and its queue; the state saved and restored")
    func dialogAndState() throws {
        let router = FlowRouter<AppRoute, AppDialog>(root: .home)
        router.showGlobalDialog(.networkError, policy: .replace)
        router.showGlobalDialog(.sessionExpired, policy: .queue)
        #expect(router.globalDialog == .networkError)
        #expect(!router.requestGlobalDialog(.sessionExpired, policy: .ignoreIfVisible))
        router.hideGlobalDialog()
        #expect(router.globalDialog == .sessionExpired)
        #expect(router.requestGlobalDialog(.networkError, policy: .replaceKeepingQueue))

        router.push(.projects)
        let saved = router.state
        router.setRoot(.splash)
        try router.restore(saved)
        #expect(router.stacks == saved.stacks)
        #expect(router.topRoute == .projects)
    }
}

/// A gate a test holds an async precondition at.
@MainActor
private final class AsyncGate {
    private var waiter: CheckedContinuation<Void, Never>?
    private var isWaiting = false

    /// Suspends until `open()`.
    func wait() async {
        await withCheckedContinuation { continuation in
            waiter = continuation
            isWaiting = true
        }
    }

    /// Returns once a task waits at the gate.
    func waitUntilWaiting() async {
        while !isWaiting { await Task.yield() }
    }

    /// Lets the waiting task go on.
    func open() {
        waiter?.resume()
        waiter = nil
    }
}
