// The end of a stack layer's appearance on UIKit platforms. Where SwiftUI is missing (Linux) it is
// type-checked against the stand-in's UIKit subset and used by nothing; a Mac builds it against
// UIKit (see docs/swiftui-host.md, "What a Mac must still check").
#if canImport(UIKit) && (os(iOS) || os(visionOS) || os(tvOS))
import SwiftUI
import UIKit
#elseif !canImport(SwiftUI) && canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if (canImport(UIKit) && (os(iOS) || os(visionOS) || os(tvOS))) || (!canImport(SwiftUI) && canImport(SwiftUIStandIn))

/// An invisible child view controller in a stack layer's background: UIKit forwards the hosting
/// controller's `viewDidAppear` to it once a presentation's animation is over (SwiftUI's
/// `onAppear` can come while it still runs).
struct FlowAppearanceProbe: UIViewControllerRepresentable {
    /// Called on each `viewDidAppear`.
    let didAppear: @MainActor () -> Void

    func makeUIViewController(context: Context) -> FlowAppearanceProbeController {
        let controller = FlowAppearanceProbeController()
        controller.didAppear = didAppear
        return controller
    }

    func updateUIViewController(_ controller: FlowAppearanceProbeController, context: Context) {
        controller.didAppear = didAppear
    }
}

/// The probe's view controller: an empty, transparent view that ignores touches.
final class FlowAppearanceProbeController: UIViewController {
    /// Called on each `viewDidAppear`.
    var didAppear: (@MainActor () -> Void)?

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .clear
        view.isUserInteractionEnabled = false
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        didAppear?()
    }
}
#endif
