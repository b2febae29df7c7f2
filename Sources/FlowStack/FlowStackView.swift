#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)

/// The SwiftUI host of a `FlowRouter` (FlowStack's view, same initializer).
///
/// ```swift
/// @StateObject private var router = FlowRouter<AppRoute, AppDialog>(root: .splash)
///
/// FlowStackView(router: router, style: style) { route in screen(for: route) }
///     destination: { route in screen(for: route) }
///     dialog: { dialog in AnyView(AppDialogView(dialog: dialog)) }
/// ```
///
/// - Every stack, the root one and each presented one, is its own `NavigationStack` bound to that
///   stack's screens; presented stacks nest through `sheet(item:)` and `fullScreenCover(item:)`
///   to any depth (a full-screen cover is shown as a sheet on macOS).
/// - The global dialog is drawn once, above everything: on iOS and visionOS in a window of its
///   own above the app's window (above detent sheets too, keeping its state while presentations
///   change), elsewhere over the front-most stack.
/// - A back swipe and a swipe-down are reported to the router as the person's operations.
/// - When the router jumps several steps at once (restoration, a transaction, a deep link),
///   the view gets there in steps SwiftUI accepts, played by the core's `FlowStagingPlayer`:
///   one presentation removed or added per step (several dismissals at once from iOS 17 and
///   macOS 14 on), each step waiting for the previous one's completion (at most 650 ms).
/// - What SwiftUI writes to a binding of a stack that is no longer shown, or before its view
///   appeared, is dropped.
public struct FlowStackView<Route: Hashable, Dialog, Root: View, Destination: View>: View {
    /// The router; every change redraws the view and may start a staged transition.
    @ObservedObject private var router: FlowRouter<Route, Dialog>
    /// What the view shows now, and the steps still to play.
    @StateObject private var host: FlowStagingHost<Route>
    /// The style and the view builders.
    private let content: FlowStackContent<Route, Dialog, Root, Destination>

    /// Creates the host of `router`.
    ///
    /// - Parameters:
    ///   - router: The router to show.
    ///   - style: Screen defaults and the screen, stack and modal closures.
    ///   - root: The view of a stack's root screen (the root stack's and each presented one's).
    ///   - destination: The view of a pushed screen.
    ///   - dialog: The global dialog's view; it gets a binding to the visible dialog, and setting
    ///     the binding to `nil` hides it (the next queued dialog, if any, then shows).
    public init(
        router: FlowRouter<Route, Dialog>,
        style: FlowNavigationStyle = .default,
        @ViewBuilder root: @escaping (Route) -> Root,
        @ViewBuilder destination: @escaping (Route) -> Destination,
        dialog: ((Binding<Dialog?>) -> AnyView)? = nil
    ) {
        self.router = router
        let launch = router.stacks
        self._host = StateObject(wrappedValue: FlowStagingHost(launching: launch))
        self.content = FlowStackContent(
            style: style, screenDefaults: style.screenDefaults,
            root: root, destination: destination, dialog: dialog
        )
    }

    /// The root stack (with everything it presents), following the router.
    public var body: some View {
        Group {
            if let rootStack = host.player.stack(at: 0) {
                FlowStackLayer(router: router, host: host, stackID: rootStack.id, content: content)
                    .id(rootStack.id)
            }
        }
        .background { content.dialogWindow(router) }
        .task(id: FlowFollowKey(stacks: router.stacks, wakeCount: host.wakeCount)) {
            await host.follow(router)
        }
    }
}

/// The style and view builders of a `FlowStackView`, handed to each of its stacks.
struct FlowStackContent<Route: Hashable, Dialog, Root: View, Destination: View> {
    /// The app's style.
    let style: FlowNavigationStyle
    /// `style`'s screen defaults, for the core's style resolution.
    let screenDefaults: FlowStyleAttributes
    /// Builds a stack's root screen.
    let root: (Route) -> Root
    /// Builds a pushed screen.
    let destination: (Route) -> Destination
    /// Builds the global dialog.
    let dialog: ((Binding<Dialog?>) -> AnyView)?
}

extension FlowStackContent {
    /// The global dialog's own window, where the platform gives it one (`FlowDialogPlacement`):
    /// behind a `FlowStackView` or a `FlowTabView`.
    @MainActor @ViewBuilder
    func dialogWindow(_ router: FlowRouter<Route, Dialog>) -> some View {
        #if canImport(UIKit) && (os(iOS) || os(visionOS))
        if let dialog {
            FlowDialogWindowAnchor(
                content: dialog(router.globalDialogBinding()),
                isVisible: router.globalDialog != nil
            )
        }
        #endif
    }
}

#endif
