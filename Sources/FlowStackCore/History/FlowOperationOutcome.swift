/// What happened to a navigation operation, as FlowStack's history records it: applied, or
/// blocked by a precondition or by the guard.
///
/// An app's exhaustive `switch` over these three cases keeps compiling. The router knows more
/// (`status`, a `FlowOperationStatus`: a rule's redirect, a script failure, nothing to pop, a
/// cancelled async request, ...); every refusal that is not a precondition's counts as
/// `blockedByGuard` here.
public enum FlowOperationOutcome: String, Hashable, Codable, Sendable {
    /// The operation changed the state.
    case applied
    /// A one-off or default precondition (Swift or rules) returned false.
    case blockedByPrecondition
    /// Anything else refused it: `guardOperation`, a rule's guard or redirect, a failing
    /// script, or the router itself (no such stack or route, nothing to pop or dismiss, a
    /// cancelled or rolled-back request, an ignored dialog change).
    case blockedByGuard

    /// The summary of a detailed status.
    public init(_ status: FlowOperationStatus) {
        switch status {
        case .applied: self = .applied
        case .blockedByPrecondition: self = .blockedByPrecondition
        case .blockedByGuard, .redirected, .failed, .stackNotFound, .routeNotFound, .nothingToPop,
             .nothingToDismiss, .cancelled, .rolledBack, .ignored:
            self = .blockedByGuard
        }
    }
}

extension FlowOperationStatus {
    /// The detailed status of one of FlowStack's three outcomes.
    public init(_ outcome: FlowOperationOutcome) {
        switch outcome {
        case .applied: self = .applied
        case .blockedByPrecondition: self = .blockedByPrecondition
        case .blockedByGuard: self = .blockedByGuard
        }
    }
}
