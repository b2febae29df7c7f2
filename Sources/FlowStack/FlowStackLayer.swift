#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)

/// One stack of a `FlowStackView`: a `NavigationStack` bound to the stack's screens, its styles,
/// the global dialog when it is the front-most stack, and the stack it presents.
///
/// The layer is identified by its stack's identity, not its index, so a stack that is being
/// dismissed keeps drawing itself (from the stacks shown before it left) while SwiftUI animates
/// it out, even if another stack already took its place.
struct FlowStackLayer<Route: Hashable, Dialog, Root: View, Destination: View>: View {
    /// The router: styles, the dialog and gesture reports.
    @ObservedObject var router: FlowRouter<Route, Dialog>
    /// The shown stacks.
    @ObservedObject var host: FlowStagingHost<Route>
    /// The stack this layer draws.
    let stackID: UUID
    /// The style and view builders.
    let content: FlowStackContent<Route, Dialog, Root, Destination>

    var body: some View {
        if let placement = host.player.placement(ofStack: stackID),
           let stackStyle = router.shownStyle(.stack, stackIndex: placement.index, in: placement.stacks) {
            let stack = placement.stacks[placement.index]
            content.style.stack(AnyView(navigationStack(for: stack).flowStackStyle(stackStyle.attributes)), stackStyle.context)
                .overlay { dialogOverlay }
                .modifier(FlowAppearanceReporter(router: router, host: host, stackID: stackID))
                .modifier(FlowPresentationLayer(router: router, host: host, presenterID: stackID, configuration: content))
        }
    }

    /// The stack's NavigationStack: its root screen, and its pushed screens by node.
    ///
    /// The path is bound to the stack's nodes, not its routes: a node carries the screen's own
    /// identity, so the same route pushed twice is two screens, a replaced screen is rebuilt, and
    /// each screen's depth (for its style) is known without ambiguity.
    private func navigationStack(for stack: FlowStackState<Route>) -> some View {
        NavigationStack(path: pathBinding(stackID: stack.id)) {
            screen(content.root(stack.root), node: nil)
                .id(stack.rootID)
                .navigationDestination(for: FlowRouteNode<Route>.self) { node in
                    screen(content.destination(node.route), node: node)
                }
        }
    }

    /// A screen with its resolved style, then the app's screen closure.
    private func screen<Screen: View>(_ view: Screen, node: FlowRouteNode<Route>?) -> AnyView {
        guard let placement = host.player.placement(ofStack: stackID),
              let style = router.shownStyle(
                .screen, stackIndex: placement.index, screen: node, in: placement.stacks,
                screenDefaults: content.screenDefaults
              )
        else { return AnyView(view) }
        return content.style.screen(AnyView(view.flowScreenStyle(style.attributes)), style.context)
    }

    /// The global dialog, drawn by the front-most shown stack only, where it has no window of
    /// its own (`FlowDialogPlacement`).
    @ViewBuilder
    private var dialogOverlay: some View {
        if !FlowDialogPlacement.hasOwnWindow, let dialog = content.dialog, host.player.hostsDialog(stackID: stackID) {
            dialog(router.globalDialogBinding())
        }
    }

    /// The stack's screens as NavigationStack sees them; what it writes (a back swipe) is shown
    /// at once and reported to the router, unless the player drops it (a stack no longer shown,
    /// or whose view has not appeared).
    private func pathBinding(stackID: UUID) -> Binding<[FlowRouteNode<Route>]> {
        let router = self.router
        let host = self.host
        return Binding(
            get: { @MainActor in
                host.player.placement(ofStack: stackID).map { $0.stacks[$0.index].navigationPath } ?? []
            },
            set: { @MainActor nodes in
                host.userDidSetPath(nodes, inStack: stackID, router: router)
            }
        )
    }
}

#endif
