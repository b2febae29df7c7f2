// SwiftUI's bridges to UIKit: UIViewRepresentable, UIViewControllerRepresentable and
// UIHostingController (stand-in: declarations only, for type-checking SwiftUI code on platforms
// without SwiftUI; never linked on Apple platforms; runtime behaviour is not modelled: SwiftUI
// never makes, updates or dismantles anything here). Signatures as in Apple's SwiftUI reference:
// the protocols and their requirements are `@MainActor @preconcurrency`, `Coordinator` defaults
// to `Void`, and `dismantle...` is a static requirement with a default.

#if !canImport(SwiftUI)

/// A wrapper for a UIKit view that you use to integrate that view into your SwiftUI view hierarchy.
@MainActor @preconcurrency
public protocol UIViewRepresentable: View where Self.Body == Never {
    /// The type of view to present.
    associatedtype UIViewType: UIView
    /// A type to coordinate with the view.
    associatedtype Coordinator = Void

    /// Creates the view object and configures its initial state.
    @MainActor @preconcurrency func makeUIView(context: Self.Context) -> Self.UIViewType

    /// Updates the state of the specified view with new information from SwiftUI.
    @MainActor @preconcurrency func updateUIView(_ uiView: Self.UIViewType, context: Self.Context)

    /// Cleans up the presented UIKit view (and coordinator) in anticipation of their removal.
    @MainActor @preconcurrency static func dismantleUIView(_ uiView: Self.UIViewType, coordinator: Self.Coordinator)

    /// Creates the custom instance that you use to communicate changes from your view.
    @MainActor @preconcurrency func makeCoordinator() -> Self.Coordinator

    /// The context SwiftUI passes to the view's methods.
    typealias Context = UIViewRepresentableContext<Self>
}

extension UIViewRepresentable {
    /// Nothing to clean up by default.
    @MainActor @preconcurrency
    public static func dismantleUIView(_ uiView: Self.UIViewType, coordinator: Self.Coordinator) {}
}

extension UIViewRepresentable where Self.Coordinator == Void {
    /// No coordinator by default.
    @MainActor @preconcurrency
    public func makeCoordinator() -> Self.Coordinator { () }
}

/// Contextual information about the state of the system that you use to create and update your
/// UIKit view.
@MainActor @preconcurrency
public struct UIViewRepresentableContext<Representable: UIViewRepresentable> {
    /// The view's associated coordinator.
    public let coordinator: Representable.Coordinator

    /// The current transaction (the stand-in has none: an empty one).
    public var transaction: Transaction { Transaction() }

    /// The environment (the stand-in stores none: the default values).
    public var environment: EnvironmentValues { EnvironmentValues() }
}

/// A view that represents a UIKit view controller.
@MainActor @preconcurrency
public protocol UIViewControllerRepresentable: View where Self.Body == Never {
    /// The type of view controller to present.
    associatedtype UIViewControllerType: UIViewController
    /// A type to coordinate with the view controller.
    associatedtype Coordinator = Void

    /// Creates the view controller object and configures its initial state.
    @MainActor @preconcurrency func makeUIViewController(context: Self.Context) -> Self.UIViewControllerType

    /// Updates the state of the specified view controller with new information from SwiftUI.
    @MainActor @preconcurrency func updateUIViewController(_ uiViewController: Self.UIViewControllerType, context: Self.Context)

    /// Cleans up the presented view controller (and coordinator) in anticipation of their removal.
    @MainActor @preconcurrency
    static func dismantleUIViewController(_ uiViewController: Self.UIViewControllerType, coordinator: Self.Coordinator)

    /// Creates the custom instance that you use to communicate changes from your view controller.
    @MainActor @preconcurrency func makeCoordinator() -> Self.Coordinator

    /// The context SwiftUI passes to the view controller's methods.
    typealias Context = UIViewControllerRepresentableContext<Self>
}

extension UIViewControllerRepresentable {
    /// Nothing to clean up by default.
    @MainActor @preconcurrency
    public static func dismantleUIViewController(
        _ uiViewController: Self.UIViewControllerType, coordinator: Self.Coordinator
    ) {}
}

extension UIViewControllerRepresentable where Self.Coordinator == Void {
    /// No coordinator by default.
    @MainActor @preconcurrency
    public func makeCoordinator() -> Self.Coordinator { () }
}

/// Contextual information about the state of the system that you use to create and update your
/// UIKit view controller.
@MainActor @preconcurrency
public struct UIViewControllerRepresentableContext<Representable: UIViewControllerRepresentable> {
    /// The view controller's associated coordinator.
    public let coordinator: Representable.Coordinator

    /// The current transaction (the stand-in has none: an empty one).
    public var transaction: Transaction { Transaction() }

    /// The environment (the stand-in stores none: the default values).
    public var environment: EnvironmentValues { EnvironmentValues() }
}

/// A UIKit view controller that manages a SwiftUI view hierarchy.
@MainActor @preconcurrency
open class UIHostingController<Content: View>: UIViewController {
    /// The root view of the SwiftUI view hierarchy managed by this view controller.
    public var rootView: Content

    /// Creates a hosting controller object that wraps the specified SwiftUI view.
    public init(rootView: Content) {
        self.rootView = rootView
        super.init(nibName: nil, bundle: nil)
    }

    /// Creates a hosting controller object from an archive (the stand-in has no root view to
    /// decode: `nil`).
    public required init?(coder aDecoder: NSCoder) {
        return nil
    }
}

#endif
