import FlowStackCore
import Foundation

/// A rules hook that plays scripted decisions: allow, block at any stage, redirect, fail open,
/// or try to navigate from inside the decision. Decisions come from the step, so a sequence
/// replays identically, and the model consumes the same script.
@MainActor
final class FuzzRulesHook: FlowRulesHook {
    var generation: Int { 7 }
    /// The decisions for the request being made.
    var script = FuzzScript([])
    /// The router, for `reenter` decisions.
    weak var router: FuzzRouter?
    /// What went wrong inside a decision (a re-entrant request that was not refused).
    var problems: [String] = []

    func decide(_ request: FlowRuleRequest) -> FlowRuleDecision {
        decision(for: request, reentering: true)
    }

    func decideAsync(_ request: FlowRuleRequest) async -> FlowRuleDecision {
        await Task.yield()
        return decision(for: request, reentering: false)
    }

    private func decision(for request: FlowRuleRequest, reentering: Bool) -> FlowRuleDecision {
        switch script.take() {
        case .allow:
            return .allow
        case .allowAfterFailure:
            return .allowAfterFailure("fuzz: the rule failed and the policy allows")
        case .block(let stage):
            return .block(FlowRuleBlock(stage: stage, reason: "fuzz: blocked at \(stage.rawValue)"))
        case .redirect(let op):
            guard let command = op.command(router?.stacks.map(\.id) ?? []) else { return .allow }
            return .redirect(FlowRuleTarget(command), FlowRuleBlock(stage: .guard, reason: nil))
        case .reenter:
            if reentering { tryToNavigate() }
            return .allow
        }
    }

    /// Navigating while a rule decides must be refused and leave no trace.
    private func tryToNavigate() {
        guard let router else { return }
        let before = router.state
        let historyCount = router.history.count
        let lastSequence = router.history.last?.sequence
        let result = router.perform(FlowCommand(.push(.login, target: .active)))
        if router.push(.a) || result.status != .failed || result.sequence != nil {
            problems.append("a push from inside a rule decision was not refused (outcome \(result.status.rawValue))")
        }
        if router.state != before || router.history.count != historyCount || router.history.last?.sequence != lastSequence {
            problems.append("a push from inside a rule decision changed the router")
        }
    }
}
