import Foundation

/// What the router's `run` hands back: a navigation's full result, or only whether it applied.
///
/// The actions that return a `Bool` (`push`, `pop`, ...) need no result. Building one costs a
/// copy of the command (the history keeps the other) and destroying the result again, both
/// through the command's value witnesses; with `FlowAppliedFlag` an applied command moves into
/// the history instead. `run` is generic over this, so each caller gets its own specialized copy.
@usableFromInline
protocol FlowRunOutput {
    associatedtype Route: Hashable
    /// The output for a request that ended with `result` (refused, blocked, redirected, ...).
    init(_ result: consuming FlowOperationResult<Route>)
    /// The output of an applied command when no result is needed (the command then moves into
    /// the history); `nil` for outputs that are the result itself.
    static var appliedWithoutResult: Self? { get }
}

extension FlowOperationResult: FlowRunOutput {
    /// The result itself.
    @inlinable
    init(_ result: consuming FlowOperationResult<Route>) {
        self = result
    }

    /// A result is always built.
    @inlinable
    static var appliedWithoutResult: FlowOperationResult<Route>? { nil }
}

/// Whether a navigation applied, for the actions that return a `Bool`.
@usableFromInline
struct FlowAppliedFlag<Route: Hashable>: FlowRunOutput {
    /// Whether the operation changed the state.
    @usableFromInline let isApplied: Bool

    @inlinable
    init(isApplied: Bool) {
        self.isApplied = isApplied
    }

    /// Whether `result` applied.
    @inlinable
    init(_ result: consuming FlowOperationResult<Route>) {
        isApplied = result.isApplied
    }

    /// Applied.
    @inlinable
    static var appliedWithoutResult: FlowAppliedFlag<Route>? { FlowAppliedFlag(isApplied: true) }
}
