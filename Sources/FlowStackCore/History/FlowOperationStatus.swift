import Foundation

/// What happened to a navigation request, in detail (every history entry, record and result
/// has one as `status`; `outcome` is FlowStack's three-case summary of it).
///
/// FlowStack's three outcomes, plus typed reasons for everything FlowStack turned into a silent
/// no-op.
public enum FlowOperationStatus: String, Hashable, Codable, Sendable {
    /// The operation changed the state.
    case applied
    /// A one-off or default precondition (Swift or rules) returned false.
    case blockedByPrecondition
    /// `guardOperation` or a route guard of the rules returned false.
    case blockedByGuard
    /// A rule blocked it and performed another operation instead.
    case redirected
    /// A rule failed (script error, redirect loop, async call in a sync navigation); the
    /// engine's failure policy blocked the operation.
    case failed
    /// The target stack does not exist.
    case stackNotFound
    /// `popTo` found no such route in the stack.
    case routeNotFound
    /// There was nothing to pop.
    case nothingToPop
    /// There was nothing to dismiss.
    case nothingToDismiss
    /// The task waiting in the async queue was cancelled before its turn.
    case cancelled
    /// A transaction step that was undone because a later step was blocked, or not attempted
    /// because an earlier one was.
    case rolledBack
    /// A dialog change that did not show anything (`ignoreIfVisible` with a visible dialog,
    /// hiding when nothing is visible).
    case ignored

    /// Whether the operation changed the state.
    public var isApplied: Bool { self == .applied }

    /// The status as the predicate of a sentence: "was blocked by a guard", "failed".
    public var phrase: String {
        switch self {
        case .applied: "was applied"
        case .blockedByPrecondition: "was blocked by a precondition"
        case .blockedByGuard: "was blocked by a guard"
        case .redirected: "was redirected"
        case .failed: "failed"
        case .stackNotFound: "found no such stack"
        case .routeNotFound: "found no such route in the stack"
        case .nothingToPop: "had nothing to pop"
        case .nothingToDismiss: "had nothing to dismiss"
        case .cancelled: "was cancelled"
        case .rolledBack: "was rolled back"
        case .ignored: "was ignored"
        }
    }

    /// Whether it had nothing to do (`popToRoot` at the root, `dismissAll` with nothing shown):
    /// nothing changed, and nothing refused it.
    public var isNoOp: Bool { self == .nothingToPop || self == .nothingToDismiss }

    /// Whether a check (precondition, guard, rule) refused it.
    public var isBlocked: Bool {
        switch self {
        case .blockedByPrecondition, .blockedByGuard, .redirected, .failed: true
        default: false
        }
    }
}

/// The typed result of one navigation request.
public struct FlowOperationResult<Route: Hashable>: Hashable {
    /// The request.
    public let command: FlowCommand<Route>
    /// What happened.
    public let status: FlowOperationStatus
    /// Why it was not applied, or `nil` when it was.
    public let reason: String?
    /// The history sequence number of the entry recorded for it, if one was recorded.
    public let sequence: Int?
    /// The rules generation that decided it (0 without rules).
    public let generation: Int
    @usableFromInline let redirectStorage: [FlowOperationResult<Route>]
    /// A redirect a rule asked for that was not performed (inside a transaction or deep link).
    public let pendingRedirect: FlowCommand<Route>?
    /// The dialog a rule answered this navigation with (`flow.redirect("dialog", ...)`), and
    /// whether it was shown; `nil` otherwise.
    public internal(set) var dialogRedirect: FlowDialogRedirectResult? = nil
    /// Whether the refusing rule's redirect (`pendingRedirect` or the dialog answer) asked to
    /// hold the request until the rules allow it (`{ resume = true }`).
    public internal(set) var redirectHolds = false

    /// Creates a result.
    @inlinable
    public init(
        command: FlowCommand<Route>,
        status: FlowOperationStatus,
        reason: String? = nil,
        sequence: Int? = nil,
        generation: Int = 0,
        redirect: FlowOperationResult<Route>? = nil,
        pendingRedirect: FlowCommand<Route>? = nil
    ) {
        self.command = command
        self.status = status
        self.reason = reason
        self.sequence = sequence
        self.generation = generation
        self.redirectStorage = redirect.map { [$0] } ?? []
        self.pendingRedirect = pendingRedirect
    }

    /// The operation.
    public var operation: FlowOperation<Route> { command.operation }

    /// Whether the operation changed the state.
    @inlinable public var isApplied: Bool { status == .applied }

    /// FlowStack's three-case summary of `status`.
    public var outcome: FlowOperationOutcome { FlowOperationOutcome(status) }

    /// The result of the operation a rule redirected to, if any.
    public var redirect: FlowOperationResult<Route>? { redirectStorage.first }

    /// Whether the redirect chain ended with an applied operation.
    public var redirectApplied: Bool {
        var current = redirect
        while let result = current {
            if result.isApplied { return true }
            current = result.redirect
        }
        return false
    }
}

extension FlowOperationResult: Sendable where Route: Sendable {}
