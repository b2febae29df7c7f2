import Foundation

/// What the rules are told about a request besides its command: who asked, the stacks, the
/// dialogs. `FlowRulesDispatch.decideParts` receives it next to the command, so the router
/// builds no request (a copy of the command) per navigation.
public struct FlowRuleRequestParts<Route: Hashable> {
    /// Who asked.
    public let source: FlowOperationSource
    /// Whether it runs through the async queue (async host calls allowed).
    public let isAsync: Bool
    /// The stacks before the operation.
    public let stacks: [FlowStackState<Route>]
    /// False when a one-off condition from the call site replaces the default preconditions:
    /// the rules then run their route guards only.
    public let runsDefaultPreconditions: Bool
    /// The visible dialog's id, or `nil`.
    public let dialog: String?
    /// The number of queued dialogs.
    public let queuedDialogCount: Int
    /// The operations redirected so far in this chain (empty for a direct request).
    public let redirectChain: [FlowCommand<Route>]

    /// Creates the parts of a request.
    @inlinable
    public init(
        source: FlowOperationSource, isAsync: Bool, stacks: [FlowStackState<Route>], runsDefaultPreconditions: Bool,
        dialog: String?, queuedDialogCount: Int, redirectChain: [FlowCommand<Route>] = []
    ) {
        self.source = source
        self.isAsync = isAsync
        self.stacks = stacks
        self.runsDefaultPreconditions = runsDefaultPreconditions
        self.dialog = dialog
        self.queuedDialogCount = queuedDialogCount
        self.redirectChain = redirectChain
    }

    /// The request these parts make with `command`.
    @inlinable
    public func request(_ command: FlowCommand<Route>) -> FlowRuleRequest<Route> {
        FlowRuleRequest(command: command, parts: self)
    }
}

extension FlowRuleRequestParts: Sendable where Route: Sendable {}
