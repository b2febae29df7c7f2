import Foundation

/// When a staged transition's next step may run (see `FlowStagingPlayer`).
///
/// A step that presents, dismisses or replaces a stack waits for its completion, which the host
/// reports (the presented stack's view appeared, the sheet's or cover's `onDismiss` ran, the new
/// root's view appeared), and runs the next step then; when no completion comes, the next step
/// runs after `completionFallbackNanoseconds` anyway. UIKit drops a presentation that starts
/// while another one animates, so the fallback is never shorter than a presentation animation.
package struct FlowStagingTiming: Hashable, Sendable {
    /// The shortest fallback: 650 ms, as FlowStacks waits between presentation changes.
    package static var minimumCompletionFallbackNanoseconds: UInt64 { 650_000_000 }

    /// The longest wait for a presentation step's completion (at least 650 ms; smaller values
    /// are raised to it).
    package var completionFallbackNanoseconds: UInt64 {
        didSet { completionFallbackNanoseconds = max(completionFallbackNanoseconds, Self.minimumCompletionFallbackNanoseconds) }
    }
    /// The pause between a path change (a push or pop animation, which reports no completion)
    /// and a presentation change right after it.
    package var navigationSpacingNanoseconds: UInt64

    /// Creates a timing; the defaults are 650 ms and 350 ms.
    package init(
        completionFallbackNanoseconds: UInt64 = Self.minimumCompletionFallbackNanoseconds,
        navigationSpacingNanoseconds: UInt64 = 350_000_000
    ) {
        self.completionFallbackNanoseconds = max(completionFallbackNanoseconds, Self.minimumCompletionFallbackNanoseconds)
        self.navigationSpacingNanoseconds = navigationSpacingNanoseconds
    }
}

/// The event a presentation step waits for before the next step runs.
package enum FlowStagingCompletion: Hashable, Sendable {
    /// The view of this stack appeared: a presented stack at the end of its presentation, or a
    /// new root stack.
    case appearance(of: UUID)
    /// The stack that this stack presented is gone (its sheet's or cover's `onDismiss` ran).
    case dismissal(presentedBy: UUID)
}
