import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// `FlowRulesDispatch`: the specialized entry points a hook may hand the router.
@MainActor
struct RouterRulesDispatchTests {
    typealias Hook = ScriptedRulesHook<TestRoute>

    /// A dispatch over `hook` that records what each entry point was asked.
    @MainActor
    final class Recorder {
        var requests: [FlowRuleRequest<TestRoute>] = []
        var parts: [(FlowCommand<TestRoute>, FlowRuleRequestParts<TestRoute>)] = []

        func dispatch(_ hook: Hook, byParts: Bool) -> FlowRulesDispatch<TestRoute> {
            var decideParts: (@MainActor (FlowCommand<TestRoute>, FlowRuleRequestParts<TestRoute>) -> FlowRuleDecision<TestRoute>)?
            if byParts {
                decideParts = { command, parts in
                    self.parts.append((command, parts))
                    return hook.decide(parts.request(command))
                }
            }
            return FlowRulesDispatch(
                owner: hook,
                needsDecision: { _, _ in true },
                decide: { request in
                    self.requests.append(request)
                    return hook.decide(request)
                },
                decideParts: decideParts,
                generation: hook.generation)
        }
    }

    @Test("decidesEveryCommand: needsDecision is skipped for commands that run the defaults, asked with a one-off condition")
    func decidesEveryCommandSkipsNeedsDecision() {
        let router = TestRouter(root: .home)
        let hook = Hook(generation: 1)
        var asked: [Bool] = []
        let dispatch = FlowRulesDispatch<TestRoute>(
            owner: hook,
            needsDecision: { _, runsDefaults in asked.append(runsDefaults); return false },
            decide: { request in hook.decide(request) },
            generation: hook.generation)
        router.installRules(hook, dispatch: dispatch)
        #expect(router.push(.a))
        #expect(asked == [true] && hook.requests.isEmpty, "without the flag the router asks needsDecision first")
        dispatch.decidesEveryCommand = true
        #expect(router.push(.b))
        #expect(asked == [true], "with the flag a command that runs the defaults goes straight to the hook")
        #expect(hook.requests.count == 1)
        let pushed = router.push(.c, condition: { _, _ in true })
        #expect(pushed)
        #expect(asked == [true, false], "a one-off condition replaces the defaults: needsDecision is asked")
        #expect(hook.requests.count == 1)
    }

    @Test("decideParts, when given, is asked instead of decide, with the request's parts")
    func partsAreAskedWithTheRequestsFields() {
        let router = TestRouter(root: .home, path: [.a])
        router.showGlobalDialog(TestDialog("first"))
        router.showGlobalDialog(TestDialog("second"), policy: .queue)
        let hook = Hook(generation: 2)
        let recorder = Recorder()
        router.installRules(hook, dispatch: recorder.dispatch(hook, byParts: true))
        let before = router.stacks
        #expect(router.perform(.push(.b, target: .active), source: .deeplink).isApplied)
        #expect(recorder.requests.isEmpty)
        #expect(recorder.parts.count == 1)
        let (command, parts) = recorder.parts[0]
        #expect(command.operation == .push(.b, target: .active))
        #expect(parts.source == .deeplink)
        #expect(!parts.isAsync)
        #expect(parts.stacks == before)
        #expect(parts.runsDefaultPreconditions)
        #expect(parts.dialog == "first")
        #expect(parts.queuedDialogCount == 1)
        #expect(parts.redirectChain.isEmpty)
        // The hook saw the same request through parts.request(_:).
        #expect(hook.requests.count == 1)
        #expect(hook.requests[0].command == command)
        #expect(hook.requests[0].stacks == before)
        #expect(router.history.last?.generation == 2)
    }

    @Test("Without decideParts the router builds the request and asks decide; a condition skips defaults")
    func decideIsAskedWithoutParts() {
        let router = TestRouter(root: .home)
        let hook = Hook(generation: 1)
        let recorder = Recorder()
        router.installRules(hook, dispatch: recorder.dispatch(hook, byParts: false))
        let applied = router.push(.a, condition: { _, _ in true })
        #expect(applied)
        #expect(recorder.parts.isEmpty)
        #expect(recorder.requests.count == 1)
        #expect(recorder.requests[0].command.operation == .push(.a, target: .active))
        #expect(!recorder.requests[0].runsDefaultPreconditions)
    }

    @Test("A redirect decided through parts runs its target with the chain so far")
    func redirectsThroughParts() {
        let router = TestRouter(root: .home)
        let hook = Hook { request in
            request.command.routes.first == .editor
                ? .redirect(FlowCommand(.push(.login, target: .active)), FlowRuleBlock(stage: .guard, reason: "login"))
                : .allow
        }
        let recorder = Recorder()
        router.installRules(hook, dispatch: recorder.dispatch(hook, byParts: true))
        let result = router.perform(.push(.editor, target: .active))
        #expect(result.status == .redirected)
        #expect(router.activeStack.path == [.login])
        #expect(recorder.parts.count == 2)
        let chain = recorder.parts[1].1.redirectChain.map { $0.operation }
        #expect(chain == [.push(.editor, target: .active)])
    }
}
