import Foundation

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
    /// through the dialog rules once the navigation is blocked (issue 21).
    public var dialog: FlowDialogRedirect?

    /// Creates a block.
    public init(stage: FlowRuleStage, reason: String? = nil, dialog: FlowDialogRedirect? = nil) {
        self.stage = stage
        self.reason = reason
        self.dialog = dialog
    }
}

/// What the rules decide about one request.
public enum FlowRuleDecision<Route: Hashable>: Hashable {
    /// Let it run.
    case allow
    /// Refuse it.
    case block(FlowRuleBlock)
    /// Refuse it and run another request instead (itself checked by the rules).
    case redirect(FlowCommand<Route>, FlowRuleBlock)
    /// The rules failed, but the failure policy lets the operation run (fail open); the
    /// reason is recorded.
    case allowAfterFailure(String)
}

/// What the rules are asked about: a command and its parts (who asked, the stacks, ...).
public struct FlowRuleRequest<Route: Hashable> {
    /// The request.
    public let command: FlowCommand<Route>
    /// Everything else the rules are told.
    public let parts: FlowRuleRequestParts<Route>

    /// Creates a request.
    @inlinable
    public init(
        command: FlowCommand<Route>,
        source: FlowOperationSource,
        isAsync: Bool,
        stacks: [FlowStackState<Route>],
        runsDefaultPreconditions: Bool,
        dialog: String?,
        queuedDialogCount: Int,
        redirectChain: [FlowCommand<Route>] = []
    ) {
        self.init(command: command, parts: FlowRuleRequestParts(
            source: source, isAsync: isAsync, stacks: stacks, runsDefaultPreconditions: runsDefaultPreconditions,
            dialog: dialog, queuedDialogCount: queuedDialogCount, redirectChain: redirectChain))
    }

    /// Creates a request from a command and its parts.
    @inlinable
    public init(command: FlowCommand<Route>, parts: FlowRuleRequestParts<Route>) {
        self.command = command
        self.parts = parts
    }

    /// Who asked.
    @inlinable public var source: FlowOperationSource { parts.source }
    /// Whether it runs through the async queue (async host calls allowed).
    @inlinable public var isAsync: Bool { parts.isAsync }
    /// The stacks before the operation.
    @inlinable public var stacks: [FlowStackState<Route>] { parts.stacks }
    /// False when a one-off condition from the call site replaces the default preconditions:
    /// the rules then run their route guards only.
    @inlinable public var runsDefaultPreconditions: Bool { parts.runsDefaultPreconditions }
    /// The visible dialog's id, or `nil`.
    @inlinable public var dialog: String? { parts.dialog }
    /// The number of queued dialogs.
    @inlinable public var queuedDialogCount: Int { parts.queuedDialogCount }
    /// The operations redirected so far in this chain (empty for a direct request).
    @inlinable public var redirectChain: [FlowCommand<Route>] { parts.redirectChain }

    /// The 0-based index of the stack the operation targets, if it targets one that exists.
    @inlinable
    public var targetIndex: Int? {
        guard let target = command.operation.target else { return nil }
        switch target {
        case .root: return 0
        case .active: return stacks.count - 1
        case .stack(let id): return stacks.firstIndex { $0.id == id }
        }
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

/// Rules consulted by a router after its Swift preconditions and guard, for every operation.
///
/// The Lua engine implements it; an app may implement it in Swift. With no hook installed the
/// router behaves exactly like FlowStack.
@MainActor
public protocol FlowRulesHook<Route>: AnyObject {
    /// The route type.
    associatedtype Route: Hashable

    /// The generation of the rules in force; recorded with every history entry.
    var generation: Int { get }

    /// Decides a synchronous navigation request.
    func decide(_ request: FlowRuleRequest<Route>) -> FlowRuleDecision<Route>

    /// Decides a request running through the async queue (rules may suspend).
    func decideAsync(_ request: FlowRuleRequest<Route>) async -> FlowRuleDecision<Route>

    /// The style attributes the rules give one screen, stack or modal, or `nil`.
    func style(for context: FlowStyleContext, hook: FlowStyleHook) -> FlowStyleAttributes?

    /// Decides a dialog about to be shown (issue 21, `FlowRouter+DialogRules.swift`); `stacks`
    /// are the router's stacks now.
    func decideDialog(_ request: FlowDialogRuleRequest, stacks: [FlowStackState<Route>]) -> FlowDialogRuleDecision
}

extension FlowRulesHook {
    /// By default an async request is decided like a synchronous one.
    public func decideAsync(_ request: FlowRuleRequest<Route>) async -> FlowRuleDecision<Route> {
        decide(request)
    }

    /// By default the rules style nothing.
    public func style(for context: FlowStyleContext, hook: FlowStyleHook) -> FlowStyleAttributes? {
        nil
    }

    /// By default every dialog is shown.
    public func decideDialog(_ request: FlowDialogRuleRequest, stacks: [FlowStackState<Route>]) -> FlowDialogRuleDecision {
        .show
    }
}

extension FlowRuleDecision: Sendable where Route: Sendable {}
extension FlowRuleRequest: Sendable where Route: Sendable {}

/// Specialized entry points into a rules hook, created where the app's route type is concrete.
///
/// A hook reached through `any FlowRulesHook` runs unspecialized generic code, which on
/// platforms without the app's type at compile time pays for runtime generic metadata on every
/// call. A hook that cares about speed hands the router these closures from an `@inlinable`
/// install method, so they are compiled for the app's route type. It is a class so that the
/// router reads it with one retain, not one per closure.
public final class FlowRulesDispatch<Route: Hashable> {
    /// The hook these closures belong to.
    public let owner: AnyObject
    /// Whether the rules need to see a command at all (`false`: allow without asking);
    /// the flag tells whether default preconditions run.
    public let needsDecision: @MainActor (FlowCommand<Route>, Bool) -> Bool
    /// Decides a synchronous request.
    public let decide: @MainActor (FlowRuleRequest<Route>) -> FlowRuleDecision<Route>
    /// Decides a synchronous request given by its parts, when the hook offers it: the router then
    /// builds no `FlowRuleRequest` (a copy of the command per navigation). Same answer as
    /// `decide` for the request those parts make.
    public let decideParts: (@MainActor (FlowCommand<Route>, FlowRuleRequestParts<Route>) -> FlowRuleDecision<Route>)?
    /// Whether every command that runs the default preconditions needs a decision (the hook
    /// has a default precondition for every kind): the router then skips `needsDecision` for
    /// such commands. The hook keeps it up to date as its rules change; when it is `true` for a
    /// command that needs none, the hook is asked anyway and must allow.
    @exclusivity(unchecked) public var decidesEveryCommand = false
    /// The generation of the rules in force (the hook's `generation`), which the hook updates
    /// on every change: the router records it without asking the hook on every navigation.
    @exclusivity(unchecked) public var generation: Int

    /// Creates the dispatch of a hook.
    public init(
        owner: AnyObject,
        needsDecision: @escaping @MainActor (FlowCommand<Route>, Bool) -> Bool,
        decide: @escaping @MainActor (FlowRuleRequest<Route>) -> FlowRuleDecision<Route>,
        decideParts: (@MainActor (FlowCommand<Route>, FlowRuleRequestParts<Route>) -> FlowRuleDecision<Route>)? = nil,
        generation: Int
    ) {
        self.owner = owner
        self.needsDecision = needsDecision
        self.decide = decide
        self.decideParts = decideParts
        self.generation = generation
    }
}


extension FlowRouter {
    /// Installs a rules hook with specialized entry points for its synchronous decisions.
    public func installRules(_ hook: any FlowRulesHook<Route>, dispatch: FlowRulesDispatch<Route>) {
        rulesHook = hook
        rulesDispatch = dispatch
    }
}
