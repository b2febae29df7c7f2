#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)

/// Where a `FlowStackView` draws the global dialog.
///
/// On iOS and visionOS, in a window of its own above the app's window (`FlowDialogWindowAnchor`,
/// UIKit): full-screen above every presentation, detent sheets included, and its state kept while
/// presentations come and go under it. Elsewhere, over the front-most shown stack
/// (`FlowStagingPlayer.hostsDialog(stackID:)`), inside that stack's presentation.
enum FlowDialogPlacement {
    /// Whether the dialog has a window of its own on this platform.
    static var hasOwnWindow: Bool {
        #if canImport(UIKit) && (os(iOS) || os(visionOS))
        true
        #else
        false
        #endif
    }
}

extension FlowRouter {
    /// The visible dialog as the dialog view sees it; writing `nil` hides it as the person's
    /// action (the next queued one shows), writing a dialog shows it in its place.
    func globalDialogBinding() -> Binding<Dialog?> {
        Binding(
            get: { @MainActor [weak self] in self?.globalDialog },
            set: { @MainActor [weak self] newValue in
                guard let self else { return }
                if let newValue {
                    self.showGlobalDialog(newValue)
                } else {
                    self.userDidHideGlobalDialog()
                }
            }
        )
    }
}

/// Reports a stack layer's appearance to the host: `onAppear` opens its bindings to writes;
/// the end of its appearance completes a staged step (on UIKit platforms the hosting
/// controller's `viewDidAppear`, after the presentation animation; elsewhere `onAppear`).
struct FlowAppearanceReporter<Route: Hashable, Dialog>: ViewModifier {
    /// The router, told of the appearance for its binding helpers.
    let router: FlowRouter<Route, Dialog>
    /// The host.
    let host: FlowStagingHost<Route>
    /// The stack the layer draws.
    let stackID: UUID

    func body(content: Content) -> some View {
        #if canImport(UIKit) && (os(iOS) || os(visionOS) || os(tvOS))
        content
            .onAppear { host.stackDidAppear(stackID, router: router) }
            .background { FlowAppearanceProbe { host.stackDidFinishAppearing(stackID) } }
        #else
        content
            .onAppear {
                host.stackDidAppear(stackID, router: router)
                host.stackDidFinishAppearing(stackID)
            }
        #endif
    }
}

#endif
