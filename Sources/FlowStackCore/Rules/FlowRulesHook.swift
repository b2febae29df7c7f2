import Foundation

/// Rules consulted by a router after its Swift preconditions and guard, for every operation.
///
/// The contract is not generic: a router hands its rules a ``FlowRuleRequest`` whose routes are
/// ``FlowRouteValue``s, and turns the ``FlowRuleDecision`` it gets back into its own route type
/// in one place (`FlowRouter.verdict(for:link:)`). The Lua engine implements it; an app may implement
/// it in Swift and install it with `FlowRouter.installRules(_:)`. With no rules installed the
/// router behaves exactly like FlowStack.
@MainActor
public protocol FlowRulesHook: AnyObject {
    /// The generation of the rules in force; recorded with every history entry.
    var generation: Int { get }

    /// Decides a synchronous navigation request.
    func decide(_ request: FlowRuleRequest) -> FlowRuleDecision

    /// Decides a request running through the async queue (rules may suspend).
    func decideAsync(_ request: FlowRuleRequest) async -> FlowRuleDecision

    /// The decision when the router cannot carry out what the rules answered (a redirect to a
    /// route the app's route type cannot build): `reason` says what and where.
    func decideFailure(_ reason: String) -> FlowRuleDecision

    /// The style attributes the rules give one screen, stack or modal, or `nil`.
    func style(for context: FlowStyleContext, hook: FlowStyleHook) -> FlowStyleAttributes?

    /// Decides a dialog about to be shown (`flow.dialog_guard`); `stacks` are the router's now.
    func decideDialog(_ request: FlowDialogRuleRequest, stacks: any FlowRuleStacks) -> FlowDialogRuleDecision

    /// The experiments the rules read deciding since the router last asked, experiment →
    /// variant (the history entry it records next keeps them), then forgotten.
    func takeExperimentReads() -> [String: String]
}

extension FlowRulesHook {
    /// By default an async request is decided like a synchronous one.
    public func decideAsync(_ request: FlowRuleRequest) async -> FlowRuleDecision {
        decide(request)
    }

    /// By default a failure blocks (fail closed).
    public func decideFailure(_ reason: String) -> FlowRuleDecision {
        .block(FlowRuleBlock(stage: .error, reason: reason))
    }

    /// By default the rules style nothing.
    public func style(for context: FlowStyleContext, hook: FlowStyleHook) -> FlowStyleAttributes? {
        nil
    }

    /// By default the rules read no experiment.
    public func takeExperimentReads() -> [String: String] {
        [:]
    }

    /// By default every dialog is shown.
    public func decideDialog(_ request: FlowDialogRuleRequest, stacks: any FlowRuleStacks) -> FlowDialogRuleDecision {
        .show
    }
}

/// Where a rule's block came from.
public enum FlowRuleStage: String, Hashable, Codable, Sendable {
    /// A default precondition of the rules.
    case precondition
    /// A route guard of the rules.
    case `guard`
    /// A rule failed (script error, budget, redirect loop); the failure policy blocked.
    case error
}

/// Why the rules refused an operation.
public struct FlowRuleBlock: Hashable, Codable, Sendable {
    /// Which kind of rule decided.
    public var stage: FlowRuleStage
    /// The reason the rule gave, or the error with `file:line`.
    public var reason: String?
    /// The dialog the rule answered the navigation with (`flow.redirect("dialog", ...)`), shown
    /// through the dialog rules once the navigation is blocked.
    public var dialog: FlowDialogRedirect?
    /// Whether the refused navigation is held and run again once the rules allow it (a
    /// redirect's `{ resume = true }`; see ``FlowPendingNavigation``).
    public var resume: Bool
    /// Where the deciding rule is (`file:line`), when a message about its decision needs it (a
    /// dialog redirect loop names the guard whose redirect went one too far).
    public var location: String?

    /// Creates a block.
    public init(
        stage: FlowRuleStage, reason: String? = nil, dialog: FlowDialogRedirect? = nil, resume: Bool = false,
        location: String? = nil
    ) {
        self.stage = stage
        self.reason = reason
        self.dialog = dialog
        self.resume = resume
        self.location = location
    }
}

/// Which style hook a style rule belongs to.
public enum FlowStyleHook: String, Hashable, Codable, Sendable, CaseIterable {
    /// Every screen.
    case screen
    /// Every navigation stack.
    case stack
    /// Every presented stack.
    case modal
}
