// A scriptable rules hook for tests. Not a product: never shipped.
import FlowStackCore

/// A `FlowRulesHook` whose decisions come from closures, recording every request it is asked.
/// `Route` is the route type of the tests' router, for `redirect(to:)` and `typedRoutes(as:)`.
@MainActor
public final class ScriptedRulesHook<Route: FlowRouteConvertible>: FlowRulesHook {
    /// The generation reported to the router.
    public var generation: Int
    /// Decides synchronous requests (and async ones when `asyncDecider` is `nil`).
    public var decider: @MainActor (FlowRuleRequest) -> FlowRuleDecision
    /// Decides async requests; may suspend.
    public var asyncDecider: (@MainActor (FlowRuleRequest) async -> FlowRuleDecision)?
    /// Styles a context for one hook.
    public var styler: (@MainActor (FlowStyleContext, FlowStyleHook) -> FlowStyleAttributes?)?
    /// Every request asked, in order (sync and async).
    public private(set) var requests: [FlowRuleRequest] = []

    /// Creates a hook that allows everything unless `decider` says otherwise.
    public init(
        generation: Int = 1,
        decider: @escaping @MainActor (FlowRuleRequest) -> FlowRuleDecision = { _ in .allow }
    ) {
        self.generation = generation
        self.decider = decider
    }

    /// Records the request and asks `decider`.
    public func decide(_ request: FlowRuleRequest) -> FlowRuleDecision {
        requests.append(request)
        return decider(request)
    }

    /// Records the request and asks `asyncDecider`, or `decider` when there is none.
    public func decideAsync(_ request: FlowRuleRequest) async -> FlowRuleDecision {
        requests.append(request)
        if let asyncDecider { return await asyncDecider(request) }
        return decider(request)
    }

    /// Asks `styler`, or styles nothing.
    public func style(for context: FlowStyleContext, hook: FlowStyleHook) -> FlowStyleAttributes? {
        styler?(context, hook)
    }

    /// A block decision at the guard stage with a reason.
    public static func blocked(_ reason: String, stage: FlowRuleStage = .guard) -> FlowRuleDecision {
        .block(FlowRuleBlock(stage: stage, reason: reason))
    }

    /// A redirect decision to `command` with an optional reason; with `resume`, the refused
    /// navigation is held until the rules allow it.
    public static func redirect(to command: FlowCommand<Route>, reason: String? = nil, resume: Bool = false) -> FlowRuleDecision {
        .redirect(FlowRuleTarget(command), FlowRuleBlock(stage: .guard, reason: reason, resume: resume))
    }
}

extension FlowRuleRequest {
    /// The routes the request shows (`routes`, else `route`), in a test's route type.
    public func typedRoutes<Route: FlowRouteConvertible>(as type: Route.Type) -> [Route] {
        (routes ?? route.map { [$0] } ?? []).compactMap { try? Route(flowRoute: $0) }
    }

    /// The stacks the request saw, in a test's route type (root stack first; each the routes of
    /// its screens, root first).
    @MainActor
    public func typedStacks<Route: FlowRouteConvertible>(as type: Route.Type) -> [[Route]] {
        (0..<stacks.count).map { index in
            (0..<(stacks.screens(index + 1) ?? 0)).compactMap { position in
                stacks.route(stack: index + 1, position: position + 1).flatMap { try? Route(flowRoute: $0) }
            }
        }
    }
}
