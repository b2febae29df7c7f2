#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)

/// FlowStack's binding helpers, for apps that build some navigation UI themselves.
///
/// They read the router's current state (no staging) and report what SwiftUI writes as the
/// person's operations (`source: .user`), like `FlowStackView` does.
extension FlowRouter {
    /// A binding to the routes above the root of the stack `stackID` (empty when there is no
    /// such stack), for `NavigationStack(path:)`; a write is reported with
    /// `userDidChangePath(_:in:)`.
    public func bindingForPath(stackID: UUID) -> Binding<[Route]> {
        Binding(
            get: { @MainActor [weak self] in
                self?.stacks.first { $0.id == stackID }?.path ?? []
            },
            set: { @MainActor [weak self] routes in
                self?.userDidChangePath(routes, in: stackID)
            }
        )
    }

    /// A binding to the front-most stack with this presentation style, for `sheet(item:)` or
    /// `fullScreenCover(item:)`; writing `nil` reports the swipe-down with
    /// `userDidDismiss(stackID:)` (which never dismisses the root stack), other writes are
    /// ignored.
    public func bindingForPresentedStack(style: FlowPresentationStyle) -> Binding<FlowStackState<Route>?> {
        Binding(
            get: { @MainActor [weak self] in
                self?.stacks.last { $0.style == style }
            },
            set: { @MainActor [weak self] newValue in
                guard let self, newValue == nil,
                      let presented = self.stacks.last(where: { $0.style == style }) else { return }
                self.userDidDismiss(stackID: presented.id)
            }
        )
    }
}

#endif
