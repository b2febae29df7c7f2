import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

/// One pipeline, two drivers: the same request made through `perform` and through
/// `performAsync` on two routers set up alike comes to the same result, history, held
/// navigation, stacks and rules requests.
@MainActor
struct RouterDriverParityTests {
    typealias Hook = ScriptedRulesHook<TestRoute>

    /// What a request came to, in the terms both drivers must agree on.
    struct Outcome: Equatable, CustomStringConvertible {
        /// The result: status, reason, generation, and the redirect's status (followed).
        var result: String
        /// Every history entry: the request, its status, source, generation and reason.
        var history: [String]
        /// The stacks' routes after it, root stack first.
        var stacks: [[TestRoute]]
        /// The held navigation, if any.
        var held: String?
        /// The rules requests: kind, routes, chain and whether the defaults run.
        var requests: [String]

        var description: String {
            "\(result)\n  history \(history)\n  stacks \(stacks)\n  held \(held ?? "none")\n  requests \(requests)"
        }
    }

    /// A router set up by `setUp`, then asked `command` once through the driver `isAsync` names;
    /// `nested` collects the results of requests made from inside the checks.
    private func outcome(
        isAsync: Bool, source: FlowOperationSource = .code, _ command: FlowCommand<TestRoute>,
        setUp: (TestRouter, Hook) -> Void
    ) async -> Outcome {
        let router = TestRouter(root: .home)
        let hook = Hook(generation: 3)
        setUp(router, hook)
        let result = isAsync
            ? await router.performAsync(command, source: source)
            : router.perform(command, source: source)
        func line(_ result: FlowOperationResult<TestRoute>) -> String {
            "\(result.command.summary) \(result.status) gen \(result.generation) \(result.reason ?? "-")"
        }
        return Outcome(
            result: line(result) + (result.redirect.map { " → " + line($0) } ?? ""),
            history: router.history.map { entry in
                "\(entry.command?.summary ?? "dialog") \(entry.status) \(entry.source) gen \(entry.generation) \(entry.reason ?? "-")"
            },
            stacks: router.stacks.map(\.routes),
            held: router.pendingNavigation.map { "\($0.command.summary) via \($0.redirect?.summary ?? "-")" },
            requests: hook.requests.map { request in
                "\(request.kind) \(request.typedRoutes(as: TestRoute.self)) chain \(request.redirectChain) "
                    + "defaults \(request.runsDefaultPreconditions)"
            })
    }

    /// Expects both drivers to agree, and returns what they came to.
    @discardableResult
    private func expectParity(
        source: FlowOperationSource = .code, _ command: FlowCommand<TestRoute>,
        sourceLocation: SourceLocation = #_sourceLocation,
        setUp: (TestRouter, Hook) -> Void
    ) async -> Outcome {
        let sync = await outcome(isAsync: false, source: source, command, setUp: setUp)
        let async = await outcome(isAsync: true, source: source, command, setUp: setUp)
        #expect(sync == async, "sync:\n\(sync)\nasync:\n\(async)", sourceLocation: sourceLocation)
        return sync
    }

    @Test func anAllowedRequestAppliesWithTheRulesGeneration() async {
        let outcome = await expectParity(FlowCommand(.push(.a, target: .active))) { router, hook in
            router.installRules(hook)
        }
        #expect(outcome.result.hasPrefix("push a applied gen 3"))
        #expect(outcome.requests.count == 1)
    }

    @Test func anInvalidRequestIsRefusedBeforeAnyCheck() async {
        var asked = 0
        let outcome = await expectParity(FlowCommand(.pop(count: 1, target: .active))) { router, hook in
            router.setDefaultPrecondition(for: .pop) { _, _ in asked += 1; return true }
            router.installRules(hook)
        }
        #expect(outcome.result.contains("nothingToPop"))
        #expect(outcome.requests.isEmpty)
        #expect(asked == 0)
    }

    @Test func aPreconditionGuardOrRuleRefusesAlike() async {
        let precondition = await expectParity(FlowCommand(.push(.a, target: .active))) { router, hook in
            router.setDefaultPrecondition(for: .push) { _, _ in false }
            router.installRules(hook)
        }
        #expect(precondition.result.contains("blockedByPrecondition"))
        #expect(precondition.requests.isEmpty)
        let guarded = await expectParity(FlowCommand(.push(.a, target: .active))) { router, hook in
            router.guardOperation = { _ in false }
            router.installRules(hook)
        }
        #expect(guarded.result.contains("blockedByGuard"))
        let ruled = await expectParity(FlowCommand(.push(.editor, target: .active))) { router, hook in
            hook.decider = { _ in Hook.blocked("premium required") }
            router.installRules(hook)
        }
        #expect(ruled.result.contains("blockedByGuard gen 3 premium required"))
    }

    @Test func aResumingRedirectIsFollowedAndHoldsTheRequest() async {
        let outcome = await expectParity(FlowCommand(.push(.editor, target: .active))) { router, hook in
            hook.decider = { request in
                request.typedRoutes(as: TestRoute.self) == [.editor]
                    ? Hook.redirect(to: FlowCommand(.present(.login, style: .sheet)), reason: "login first", resume: true)
                    : .allow
            }
            router.installRules(hook)
        }
        #expect(outcome.history.count == 2)
        #expect(outcome.stacks == [[.home], [.login]])
        #expect(outcome.held?.hasPrefix("push editor") == true)
        #expect(outcome.requests.count == 2)
    }

    @Test func aRequestIsValidatedAgainWhenItsChecksMovedTheRouter() async {
        // The precondition empties the path: the pop it allowed is no longer possible.
        let outcome = await expectParity(FlowCommand(.pop(count: 1, target: .active))) { router, _ in
            router.push(.a)
            router.setDefaultPrecondition(for: .pop) { _, _ in
                router.popToRoot()
                return true
            }
        }
        #expect(outcome.result.contains("nothingToPop"))
        #expect(outcome.stacks == [[.home]])
        #expect(outcome.history.count == 3)
    }

    @Test func aRuleNavigatingWhileItDecidesIsRefusedAndNotRecorded() async {
        var nested: [FlowOperationStatus] = []
        let outcome = await expectParity(FlowCommand(.push(.a, target: .active))) { router, hook in
            hook.decider = { request in
                if request.typedRoutes(as: TestRoute.self) == [.a] {
                    nested.append(router.perform(.push(.b, target: .active)).status)
                }
                return .allow
            }
            router.installRules(hook)
        }
        #expect(nested == [.failed, .failed])
        #expect(outcome.history.count == 1)
        #expect(outcome.stacks == [[.home, .a]])
    }

    @Test func aPersonsRequestSkipsEveryCheck() async {
        let outcome = await expectParity(source: .user, FlowCommand(.push(.a, target: .active))) { router, hook in
            router.guardOperation = { _ in false }
            hook.decider = { _ in Hook.blocked("never") }
            router.installRules(hook)
        }
        #expect(outcome.result.contains("applied"))
        #expect(outcome.requests.isEmpty)
    }
}
