import Foundation

/// What SwiftUI writes through the bindings the package hands out (`bindingForPath(stackID:)`,
/// `bindingForPresentedStack(style:)`), decided here so the decision is the same on every
/// platform and testable without SwiftUI.
///
/// A binding captures the identity of the stack it was made for. A write applies, as the
/// person's operation, only when that stack still exists; otherwise it is dropped (a binding made
/// for a stack that is gone may be written after another stack took its place). Once the app
/// reports appearances (`viewDidAppear(stackID:)`, called at least once), a write is also dropped
/// while the view of its stack has not appeared: SwiftUI writes spurious values to the bindings
/// of views that are not on screen yet (a sheet it could not present gets `nil`). An app that
/// never reports appearances keeps the original FlowStack's behaviour: every write for a stack
/// that exists applies.
extension FlowRouter {
    /// The view showing the stack `stackID` appeared (call it from SwiftUI's `onAppear`); from
    /// now on, writes through the bindings made for that stack apply, and writes for stacks whose
    /// view has not reported its appearance are dropped. Ignored for a stack that does not exist.
    /// `FlowStackView` reports its own stacks to its staging player, not here.
    public func viewDidAppear(stackID: UUID) {
        guard containsStack(id: stackID) else { return }
        reportsViewAppearance = true
        if appearedViewStackIDs.count >= stacks.count {
            appearedViewStackIDs = appearedViewStackIDs.filter { containsStack(id: $0) }
        }
        appearedViewStackIDs.insert(stackID)
    }

    /// Whether the stack `stackID` exists and its view reported its appearance.
    public func viewHasAppeared(stackID: UUID) -> Bool {
        appearedViewStackIDs.contains(stackID) && containsStack(id: stackID)
    }

    /// Whether a write through a binding made for the stack `stackID` applies: the stack exists
    /// and, once the app reports appearances, its view appeared.
    public func acceptsBindingWrite(stackID: UUID) -> Bool {
        reportsViewAppearance ? viewHasAppeared(stackID: stackID) : containsStack(id: stackID)
    }

    /// A path written through a binding made for the stack `stackID`: applied as the person's
    /// change (`userDidChangePath(_:in:)`) when `acceptsBindingWrite(stackID:)`; dropped (`nil`)
    /// otherwise.
    @discardableResult
    public func bindingDidSetPath(_ routes: [Route], stackID: UUID) -> FlowOperationResult<Route>? {
        guard acceptsBindingWrite(stackID: stackID) else { return nil }
        return userDidChangePath(routes, in: stackID)
    }

    /// `nil` written through a presentation binding made while `presentedID` was the stack it
    /// showed: the swipe-down of that very stack (`userDidDismiss(stackID:)`), never of a stack
    /// presented later in its place. Dropped (`nil`) when the binding showed nothing, when that
    /// stack is gone, and, once the app reports appearances, when its view never appeared (SwiftUI
    /// writes `nil` for a presentation it could not make).
    @discardableResult
    public func bindingDidDismiss(presentedID: UUID?) -> FlowOperationResult<Route>? {
        guard let presentedID, acceptsBindingWrite(stackID: presentedID) else { return nil }
        return userDidDismiss(stackID: presentedID)
    }

    /// The front-most presented stack with this presentation style, the one a
    /// `bindingForPresentedStack(style:)` made now shows (`nil` when there is none).
    public func frontPresentedStack(style: FlowPresentationStyle) -> FlowStackState<Route>? {
        stacks.last { $0.style == style }
    }
}
