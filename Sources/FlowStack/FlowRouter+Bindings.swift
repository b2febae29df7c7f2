#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)

/// FlowStack's binding helpers, for apps that build some navigation UI themselves.
///
/// They read the router's current state (no staging) and report what SwiftUI writes as the
/// person's operations (`source: .user`), like `FlowStackView` does. Each binding captures the
/// identity of the stack it was made for, and its writes go through the core's
/// `bindingDidSetPath(_:stackID:)` and `bindingDidDismiss(presentedID:)`: a write for a stack
/// that is gone is dropped. Report appearances with `.onAppear { router.viewDidAppear(stackID: id) }`
/// on the views that use the bindings (for a presented stack, on the presented content) and
/// writes before a view appeared are dropped too.
extension FlowRouter {
    /// A binding to the routes above the root of the stack `stackID` (empty when there is no
    /// such stack), for `NavigationStack(path:)`; a write is applied with
    /// `bindingDidSetPath(_:stackID:)`.
    public func bindingForPath(stackID: UUID) -> Binding<[Route]> {
        Binding(
            get: { @MainActor [weak self] in
                self?.stacks.first { $0.id == stackID }?.path ?? []
            },
            set: { @MainActor [weak self] routes in
                self?.bindingDidSetPath(routes, stackID: stackID)
            }
        )
    }

    /// A binding to the front-most stack with this presentation style, for `sheet(item:)` or
    /// `fullScreenCover(item:)`. It captures the stack shown when it was made: writing `nil`
    /// reports the swipe-down of that stack with `bindingDidDismiss(presentedID:)` (never of a
    /// stack presented later in its place, never of the root stack); other writes are ignored.
    public func bindingForPresentedStack(style: FlowPresentationStyle) -> Binding<FlowStackState<Route>?> {
        let presentedID = frontPresentedStack(style: style)?.id
        return Binding(
            get: { @MainActor [weak self] in
                self?.frontPresentedStack(style: style)
            },
            set: { @MainActor [weak self] newValue in
                guard newValue == nil else { return }
                self?.bindingDidDismiss(presentedID: presentedID)
            }
        )
    }
}

#endif
