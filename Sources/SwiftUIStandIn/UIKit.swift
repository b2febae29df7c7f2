// The part of UIKit that FlowStack's UIKit files use (stand-in: declarations only, for
// type-checking them on platforms without SwiftUI; never linked on Apple platforms; nothing is
// drawn, no window is shown and no view controller appears).
//
// On Apple platforms these are UIKit's (`import UIKit`). Here `import SwiftUIStandIn` declares
// them, so that `FlowDialogWindow+UIKit.swift` and `FlowAppearanceProbe+UIKit.swift` type-check on
// Linux against the signatures of Apple's UIKit reference (iOS, tvOS and visionOS; UIKit's
// classes are `@MainActor`). Only what those files use is declared: add a member, with Apple's
// documented signature, when they start using another one.

#if !canImport(SwiftUI)

/// An object that manages the content for a rectangular area on the screen.
@MainActor @preconcurrency
open class UIView {
    /// The view's background color.
    open var backgroundColor: UIColor?
    /// Whether user events are delivered to the view.
    open var isUserInteractionEnabled = true
    /// Whether the view is hidden.
    open var isHidden = false
    /// The view's window (never set in the stand-in: nothing is shown).
    open var window: UIWindow? { nil }

    /// Initializes and returns a newly allocated view object with the specified frame rectangle.
    public init(frame: CGRect) {}

    /// Creates a view from data in an unarchiver.
    public required init?(coder: NSCoder) {}

    /// Tells the view that its window object changed.
    open func didMoveToWindow() {}
}

/// The backdrop for an app's user interface and the object that dispatches events to its views.
@MainActor @preconcurrency
open class UIWindow: UIView {
    /// The positioning of windows relative to each other.
    public struct Level: RawRepresentable, Hashable, Sendable {
        /// The level's value: windows of a higher level are in front.
        public var rawValue: CGFloat

        /// Creates a window level structure with the specified raw value.
        public init(rawValue: CGFloat) { self.rawValue = rawValue }

        /// Creates a window level structure.
        public init(_ rawValue: CGFloat) { self.rawValue = rawValue }

        /// The default level.
        public static let normal = Level(rawValue: 0)
        /// The level for a status window.
        public static let statusBar = Level(rawValue: 1000)
        /// The level for an alert view.
        public static let alert = Level(rawValue: 2000)
    }

    /// The position of the window in the z-axis.
    open var windowLevel = Level.normal
    /// The root view controller for the window.
    open var rootViewController: UIViewController?
    /// The scene containing the window.
    open weak var windowScene: UIWindowScene?

    /// Creates a window and associates it with the specified scene object.
    public init(windowScene: UIWindowScene) {
        self.windowScene = windowScene
        super.init(frame: .zero)
    }

    /// Creates a window with a frame (prefer `init(windowScene:)`).
    public override init(frame: CGRect) { super.init(frame: frame) }

    /// Creates a window from data in an unarchiver.
    public required init?(coder: NSCoder) { super.init(coder: coder) }
}

/// A scene that manages one or more windows for an app (only UIKit creates them).
@MainActor @preconcurrency
open class UIWindowScene {
    /// Only UIKit creates scenes.
    init() {}
}

/// An object that manages a view hierarchy for a UIKit app.
@MainActor @preconcurrency
open class UIViewController {
    /// The view that the controller manages (made on first access by UIKit; never here).
    open var view: UIView! {
        get { standInRuntimeNotModelled("UIViewController.view") }
        set {}
    }

    /// Creates a view controller with the nib file in the specified bundle.
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {}

    /// Creates a view controller with data in an unarchiver.
    public required init?(coder: NSCoder) {}

    /// Creates a view controller without a nib file (`UIViewController()`).
    public convenience init() { self.init(nibName: nil, bundle: nil) }

    /// Called after the controller's view is loaded into memory.
    open func viewDidLoad() {}

    /// Notifies the view controller that its view was added to a view hierarchy.
    open func viewDidAppear(_ animated: Bool) {}
}

/// An object that stores color data and sometimes opacity.
open class UIColor: @unchecked Sendable {
    /// The color's name (the stand-in keeps it only for debugging).
    let name: String

    /// Creates a color named by the stand-in itself.
    init(name: String) { self.name = name }

    /// A color object with grayscale and alpha values that are both 0.0.
    open class var clear: UIColor { UIColor(name: "clear") }
}

#endif
