#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)

/// Presents the stack that a stack presents, as a sheet or a full-screen cover (a sheet on macOS,
/// which has no full-screen cover), with its modal style. The presented stack is a
/// `FlowStackLayer`, which presents the next one the same way, to any depth.
///
/// `onDismiss` and `content` are closures, not the methods themselves: SwiftUI declares them
/// nonisolated, and a main-actor method passed as such a function value is diagnosed by some
/// Swift 6 compilers (a closure written here is isolated to the main actor, as the body is).
struct FlowPresentationLayer<Route: Hashable, Dialog, Root: View, Destination: View>: ViewModifier {
    /// The router: styles and gesture reports.
    @ObservedObject var router: FlowRouter<Route, Dialog>
    /// The shown stacks.
    @ObservedObject var host: FlowStagingHost<Route>
    /// The presenting stack.
    let presenterID: UUID
    /// The style and view builders.
    let configuration: FlowStackContent<Route, Dialog, Root, Destination>

    func body(content: Content) -> some View {
        #if os(macOS)
        content
            .sheet(item: presentedBinding(showing: [.sheet, .fullScreenCover]), onDismiss: { didDismiss() }) { stack in
                presentedStack(stack)
            }
        #else
        content
            .sheet(item: presentedBinding(showing: [.sheet]), onDismiss: { didDismiss() }) { stack in
                presentedStack(stack)
            }
            .fullScreenCover(item: presentedBinding(showing: [.fullScreenCover]), onDismiss: { didDismiss() }) { stack in
                presentedStack(stack)
            }
        #endif
    }

    /// The sheet's or cover's `onDismiss`: the dismissal animation is over, which completes a
    /// staged dismissal step.
    private func didDismiss() {
        host.presentationDidDismiss(presenterID: presenterID)
    }

    /// The presented stack when it has one of `styles`; SwiftUI writing `nil` (a swipe-down) is
    /// shown at once and reported to the router.
    ///
    /// The setter dismisses the stack this binding was made for, never a later one: SwiftUI may
    /// write `nil` after the next stack is already presented in its place. The player drops the
    /// write when that stack is no longer shown or its view never appeared.
    private func presentedBinding(showing styles: Set<FlowPresentationStyle>) -> Binding<FlowStackState<Route>?> {
        let router = self.router
        let host = self.host
        let presenterID = self.presenterID
        let presentedID = host.player.presented(byStack: presenterID).flatMap { styles.contains($0.style) ? $0.id : nil }
        return Binding(
            get: { @MainActor in
                host.player.presented(byStack: presenterID).flatMap { styles.contains($0.style) ? $0 : nil }
            },
            set: { @MainActor newValue in
                guard newValue == nil, let presentedID else { return }
                host.userDidDismiss(stackID: presentedID, router: router)
            }
        )
    }

    /// A presented stack inside its sheet or cover: the stack's layer with the presentation's
    /// resolved style, then the app's modal closure.
    private func presentedStack(_ stack: FlowStackState<Route>) -> AnyView {
        guard let placement = host.player.placement(ofStack: stack.id),
              let modal = router.shownStyle(.modal, stackIndex: placement.index, in: placement.stacks)
        else { return AnyView(EmptyView()) }
        let layer = FlowStackLayer(router: router, host: host, stackID: stack.id, content: configuration)
        return configuration.style.modal(AnyView(layer.flowModalStyle(modal.attributes)), modal.context)
    }
}

#endif
