// A scriptable rules hook for tests. Not a product: never shipped.
import FlowStackCore

/// A `FlowRulesHook` whose decisions come from closures, recording every request it is asked.
@MainActor
public final class ScriptedRulesHook<Route: Hashable>: FlowRulesHook {
    /// The generation reported to the router.
    public var generation: Int
    /// Decides synchronous requests (and async ones when `asyncDecider` is `nil`).
    public var decider: @MainActor (FlowRuleRequest<Route>) -> FlowRuleDecision<Route>
    /// Decides async requests; may suspend.
    public var asyncDecider: (@MainActor (FlowRuleRequest<Route>) async -> FlowRuleDecision<Route>)?
    /// Styles a context for one hook.
    public var styler: (@MainActor (FlowStyleContext, FlowStyleHook) -> FlowStyleAttributes?)?
    /// Every request asked, in order (sync and async).
    public private(set) var requests: [FlowRuleRequest<Route>] = []

    /// Creates a hook that allows everything unless `decider` says otherwise.
    public init(
        generation: Int = 1,
        decider: @escaping @MainActor (FlowRuleRequest<Route>) -> FlowRuleDecision<Route> = { _ in .allow }
    ) {
        self.generation = generation
        self.decider = decider
    }

    /// Records the request and asks `decider`.
    public func decide(_ request: FlowRuleRequest<Route>) -> FlowRuleDecision<Route> {
        requests.append(request)
        return decider(request)
    }

    /// Records the request and asks `asyncDecider`, or `decider` when there is none.
    public func decideAsync(_ request: FlowRuleRequest<Route>) async -> FlowRuleDecision<Route> {
        requests.append(request)
        if let asyncDecider { return await asyncDecider(request) }
        return decider(request)
    }

    /// Asks `styler`, or styles nothing.
    public func style(for context: FlowStyleContext, hook: FlowStyleHook) -> FlowStyleAttributes? {
        styler?(context, hook)
    }

    /// A block decision at the guard stage with a reason.
    public static func blocked(_ reason: String, stage: FlowRuleStage = .guard) -> FlowRuleDecision<Route> {
        .block(FlowRuleBlock(stage: stage, reason: reason))
    }

    /// A redirect decision to `command` with an optional reason.
    public static func redirect(to command: FlowCommand<Route>, reason: String? = nil) -> FlowRuleDecision<Route> {
        .redirect(command, FlowRuleBlock(stage: .guard, reason: reason))
    }
}
