import Foundation

/// How a stack is shown: the root stack, or a presented sheet or full-screen cover.
public enum FlowPresentationStyle: String, Hashable, Codable, Sendable, CaseIterable {
    /// The app's root navigation stack.
    case root
    /// A stack presented as a sheet.
    case sheet
    /// A stack presented as a full-screen cover.
    case fullScreenCover
}

/// Which stack an action applies to.
public enum FlowStackTarget: Hashable, Codable, Sendable {
    /// The root stack (index 0).
    case root
    /// The front-most stack: the last presented one, or the root stack.
    case active
    /// The stack with this identity.
    case stack(UUID)
}

/// Whether `popTo(_:match:)` keeps the matched screen (`exclusive`) or removes it too (`inclusive`).
public enum FlowPopMatch: String, Hashable, Codable, Sendable {
    /// Pop the screens above the match; the matched screen stays on top.
    case exclusive
    /// Pop the matched screen as well.
    case inclusive
}

/// How `showGlobalDialog(_:policy:)` treats the visible dialog and the queue.
public enum FlowDialogPolicy: String, Hashable, Codable, Sendable, CaseIterable {
    /// Show now and clear the queue.
    case replace
    /// Show now and keep the queue for later.
    case replaceKeepingQueue
    /// Show now when nothing is visible, otherwise append to the queue.
    case queue
    /// Show only when nothing is visible; otherwise drop it.
    case ignoreIfVisible
}

/// Options of a presented stack.
public struct FlowPresentationOptions: Hashable, Codable, Sendable {
    /// Whether the person may dismiss the stack with a swipe-down.
    public var allowsInteractiveDismiss: Bool
    /// Whether dismissing the stack also dismisses the stacks presented above it.
    public var clearsNestedPresentationOnDismiss: Bool

    /// Creates presentation options; the defaults match FlowStack's.
    public init(
        allowsInteractiveDismiss: Bool = true,
        clearsNestedPresentationOnDismiss: Bool = true
    ) {
        self.allowsInteractiveDismiss = allowsInteractiveDismiss
        self.clearsNestedPresentationOnDismiss = clearsNestedPresentationOnDismiss
    }
}

/// Where a navigation request came from.
public enum FlowOperationSource: String, Hashable, Codable, Sendable {
    /// App code called the router.
    case code
    /// The person already did it with a system gesture (back swipe, swipe-down).
    case user
    /// A deep link's plan.
    case deeplink
    /// A held navigation run again once the rules allowed it (see `FlowPendingNavigation`), and
    /// the dismissal of the presentation its redirect opened.
    case resume
    /// What the facts rules (`flow.on_facts_changed`) asked of the screens on show when facts
    /// changed (the private screens going once the person signed out).
    case facts
}
