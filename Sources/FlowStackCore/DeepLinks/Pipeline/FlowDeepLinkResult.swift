import Foundation

/// The result of opening (or retrying) a deep link.
///
/// Equatable and hashable, so tests can compare whole results; two results are equal when
/// every field is, including the transaction's step results.
public struct FlowDeepLinkResult<Route: Hashable>: Hashable {
    /// The link.
    public let url: URL
    /// What became of it.
    public let status: FlowDeepLinkStatus
    /// Why it was not applied (the policy's, the resolver's or the transaction's reason);
    /// `nil` when applied.
    public let reason: String?
    /// Why it was attempted: a new link, or a retry of the held one.
    public let trigger: FlowDeepLinkTrigger
    /// The plan the resolver produced, or `nil` when rejected or unhandled before any plan.
    public let plan: FlowDeepLinkPlan<Route>?
    /// The transaction that ran the plan, or `nil` when no plan ran.
    public let transaction: FlowTransactionResult<Route>?
    /// The redirect the blocking rule asked for, whether performed or not.
    public let requestedRedirect: FlowCommand<Route>?
    /// The result of performing the requested redirect, or `nil` when there was none or it
    /// was not performed again (its target already showing, or an automatic retry asking for
    /// the same redirect as last time).
    public let redirect: FlowOperationResult<Route>?
    /// The plan's dialogs (`flow.op("showDialog", ...)`) when it applied, each shown or refused
    /// by the dialog rules, in order.
    public internal(set) var dialogs: [FlowDialogRedirectResult] = []
    /// The dialog the blocking rule answered with, shown after the plan was rolled back (not
    /// on an automatic retry), or `nil`.
    public internal(set) var dialogRedirect: FlowDialogRedirectResult? = nil

    /// Creates a result.
    public init(
        url: URL,
        status: FlowDeepLinkStatus,
        reason: String? = nil,
        trigger: FlowDeepLinkTrigger = .open,
        plan: FlowDeepLinkPlan<Route>? = nil,
        transaction: FlowTransactionResult<Route>? = nil,
        requestedRedirect: FlowCommand<Route>? = nil,
        redirect: FlowOperationResult<Route>? = nil
    ) {
        self.url = url
        self.status = status
        self.reason = reason
        self.trigger = trigger
        self.plan = plan
        self.transaction = transaction
        self.requestedRedirect = requestedRedirect
        self.redirect = redirect
    }

    /// Whether the whole plan applied.
    public var isApplied: Bool { status == .applied }

    /// Whether the link is held (it may since have been dropped, replaced or applied).
    public var isPending: Bool { status == .pending }

    /// The results of the plan's steps, in order (empty when no plan ran).
    public var steps: [FlowOperationResult<Route>] { transaction?.steps ?? [] }

    /// The 0-based index of the blocked step, if any.
    public var failedStepIndex: Int? { transaction?.failedStepIndex }

    /// Compares every field, the transaction by its commit flag, steps and failed index.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.url == rhs.url && lhs.status == rhs.status && lhs.reason == rhs.reason
            && lhs.trigger == rhs.trigger && lhs.plan == rhs.plan
            && lhs.transaction?.isCommitted == rhs.transaction?.isCommitted
            && lhs.transaction?.steps == rhs.transaction?.steps
            && lhs.transaction?.failedStepIndex == rhs.transaction?.failedStepIndex
            && lhs.requestedRedirect == rhs.requestedRedirect && lhs.redirect == rhs.redirect
    }

    /// Hashes the fields `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(url)
        hasher.combine(status)
        hasher.combine(reason)
        hasher.combine(trigger)
        hasher.combine(plan)
        hasher.combine(transaction?.isCommitted)
        hasher.combine(transaction?.steps)
        hasher.combine(transaction?.failedStepIndex)
        hasher.combine(requestedRedirect)
        hasher.combine(redirect)
    }
}
