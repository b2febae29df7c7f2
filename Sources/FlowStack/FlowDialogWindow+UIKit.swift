// The global dialog's own window on iOS and visionOS (UIKit). Where SwiftUI is missing (Linux) it
// is type-checked against the stand-in's UIKit subset and used by nothing; a Mac builds it against
// UIKit (see docs/swiftui-host.md, "What a Mac must still check").
#if canImport(UIKit) && (os(iOS) || os(visionOS))
import SwiftUI
import UIKit
#elseif !canImport(SwiftUI) && canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if (canImport(UIKit) && (os(iOS) || os(visionOS))) || (!canImport(SwiftUI) && canImport(SwiftUIStandIn))

/// A zero-size view in `FlowStackView`'s background that shows the global dialog in a window of
/// its own, above the app's window in the same scene: full-screen above every presentation
/// (detent sheets included), and unaffected when presentations come and go under it.
struct FlowDialogWindowAnchor: UIViewRepresentable {
    /// The dialog's view, built with a binding to the router's visible dialog.
    let content: AnyView
    /// Whether a dialog is visible: the window is shown only then (it takes the touches).
    let isVisible: Bool

    func makeUIView(context: Context) -> FlowDialogAnchorView {
        let view = FlowDialogAnchorView(frame: .zero)
        view.isUserInteractionEnabled = false
        return view
    }

    func updateUIView(_ view: FlowDialogAnchorView, context: Context) {
        view.update(content: content, isVisible: isVisible)
    }

    static func dismantleUIView(_ view: FlowDialogAnchorView, coordinator: ()) {
        view.removeDialogWindow()
    }
}

/// Owns the dialog's window. It finds the scene through its own window once, then keeps the
/// dialog window while it lives, even when UIKit takes the app's content out of the window
/// under a full-screen cover.
final class FlowDialogAnchorView: UIView {
    /// The dialog's window, made once the anchor is in a scene.
    private var dialogWindow: UIWindow?
    /// The dialog window's root: one hosting controller for the window's lifetime, so the
    /// dialog's view keeps its state.
    private var hostingController: UIHostingController<AnyView>?
    /// The latest dialog view (`nil` until the first update).
    private var content: AnyView?
    /// Whether a dialog is visible.
    private var isVisible = false

    /// Takes the latest dialog view and visibility.
    func update(content: AnyView, isVisible: Bool) {
        self.content = content
        self.isVisible = isVisible
        apply()
    }

    override func didMoveToWindow() {
        super.didMoveToWindow()
        apply()
    }

    /// Hides and releases the dialog's window (the anchor left the view tree for good).
    func removeDialogWindow() {
        dialogWindow?.isHidden = true
        dialogWindow?.rootViewController = nil
        dialogWindow = nil
        hostingController = nil
    }

    /// Makes the window when needed, hands the dialog view over, and shows or hides it.
    private func apply() {
        guard let content else { return }
        if let hostingController {
            hostingController.rootView = content
        } else if let scene = window?.windowScene {
            let controller = UIHostingController(rootView: content)
            controller.view.backgroundColor = .clear
            let overlay = UIWindow(windowScene: scene)
            overlay.windowLevel = UIWindow.Level(rawValue: UIWindow.Level.normal.rawValue + 1)
            overlay.backgroundColor = .clear
            overlay.rootViewController = controller
            hostingController = controller
            dialogWindow = overlay
        }
        dialogWindow?.isHidden = !isVisible
    }
}
#endif
