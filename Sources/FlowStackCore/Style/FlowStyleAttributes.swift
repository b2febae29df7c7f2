import Foundation

/// Horizontal alignment of multi-line text.
public enum FlowTextAlignment: String, Hashable, Codable, Sendable, CaseIterable {
    /// The leading edge, centred, the trailing edge.
    case leading, center, trailing
}

/// A colour scheme.
public enum FlowColorScheme: String, Hashable, Codable, Sendable, CaseIterable {
    /// Light or dark appearance.
    case light, dark
}

/// Visibility of a system element such as the sheet's drag indicator.
public enum FlowVisibility: String, Hashable, Codable, Sendable, CaseIterable {
    /// The system decides; shown; hidden.
    case automatic, visible, hidden
}

/// A named colour that rules may use instead of a hex value.
public enum FlowNamedColor: String, Hashable, Codable, Sendable, CaseIterable {
    /// The system's semantic colours: primary, secondary and the app's accent.
    case primary, secondary, accent
    /// The system's colours of these names.
    case red, orange, yellow, green, blue, purple, pink, gray, black, white
    /// Transparent.
    case clear
}

/// A colour: named, or RGBA components.
public enum FlowColor: Hashable, Codable, Sendable {
    /// A named colour.
    case named(FlowNamedColor)
    /// Red, green, blue and alpha, each 0...255.
    case rgba(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8)
}

/// A sheet height a presented stack may take.
public enum FlowDetent: Hashable, Codable, Sendable {
    /// About half the screen.
    case medium
    /// The full height.
    case large
    /// A fraction of the height, `0 < x <= 1`.
    case fraction(Double)
    /// A fixed height in points.
    case height(Double)
}

/// Style attributes of one screen, stack or modal: what Swift and Lua style rules produce.
///
/// Every attribute is optional; `merging(_:)` lets later values win key by key. The SwiftUI layer
/// maps resolved attributes onto modifiers.
public struct FlowStyleAttributes: Hashable, Codable, Sendable {
    /// Hide the navigation bar.
    public var navigationBarHidden: Bool?
    /// Alignment of multi-line text.
    public var multilineTextAlignment: FlowTextAlignment?
    /// Tint colour.
    public var tint: FlowColor?
    /// Background colour.
    public var background: FlowColor?
    /// Preferred colour scheme.
    public var preferredColorScheme: FlowColorScheme?
    /// Sheet drag indicator visibility.
    public var presentationDragIndicator: FlowVisibility?
    /// Sheet detents.
    public var presentationDetents: [FlowDetent]?
    /// Forbid the swipe-down that dismisses a presented stack.
    public var interactiveDismissDisabled: Bool?
    /// Hide the back button (and the back swipe).
    public var navigationBarBackButtonHidden: Bool?
    /// Navigation title.
    public var navigationTitle: String?

    /// Creates attributes; unset ones are `nil`.
    public init(
        navigationBarHidden: Bool? = nil,
        multilineTextAlignment: FlowTextAlignment? = nil,
        tint: FlowColor? = nil,
        background: FlowColor? = nil,
        preferredColorScheme: FlowColorScheme? = nil,
        presentationDragIndicator: FlowVisibility? = nil,
        presentationDetents: [FlowDetent]? = nil,
        interactiveDismissDisabled: Bool? = nil,
        navigationBarBackButtonHidden: Bool? = nil,
        navigationTitle: String? = nil
    ) {
        self.navigationBarHidden = navigationBarHidden
        self.multilineTextAlignment = multilineTextAlignment
        self.tint = tint
        self.background = background
        self.preferredColorScheme = preferredColorScheme
        self.presentationDragIndicator = presentationDragIndicator
        self.presentationDetents = presentationDetents
        self.interactiveDismissDisabled = interactiveDismissDisabled
        self.navigationBarBackButtonHidden = navigationBarBackButtonHidden
        self.navigationTitle = navigationTitle
    }

    /// FlowStack's screen defaults: navigation bar hidden, text leading.
    public static let flowStackScreenDefaults = FlowStyleAttributes(
        navigationBarHidden: true, multilineTextAlignment: .leading
    )

    /// Whether no attribute is set.
    public var isEmpty: Bool { self == FlowStyleAttributes() }

    /// These attributes with `other`'s set values written over them.
    public func merging(_ other: FlowStyleAttributes?) -> FlowStyleAttributes {
        guard let other else { return self }
        var result = self
        if let value = other.navigationBarHidden { result.navigationBarHidden = value }
        if let value = other.multilineTextAlignment { result.multilineTextAlignment = value }
        if let value = other.tint { result.tint = value }
        if let value = other.background { result.background = value }
        if let value = other.preferredColorScheme { result.preferredColorScheme = value }
        if let value = other.presentationDragIndicator { result.presentationDragIndicator = value }
        if let value = other.presentationDetents { result.presentationDetents = value }
        if let value = other.interactiveDismissDisabled { result.interactiveDismissDisabled = value }
        if let value = other.navigationBarBackButtonHidden { result.navigationBarBackButtonHidden = value }
        if let value = other.navigationTitle { result.navigationTitle = value }
        return result
    }
}

/// The resolved style of one screen: its own attributes, its stack's, and its presentation's.
public struct FlowResolvedStyle: Hashable, Codable, Sendable {
    /// The screen's attributes.
    public var screen: FlowStyleAttributes
    /// The stack's attributes.
    public var stack: FlowStyleAttributes
    /// The presentation's attributes (`nil` on the root stack).
    public var modal: FlowStyleAttributes?

    /// Creates a resolved style.
    public init(screen: FlowStyleAttributes, stack: FlowStyleAttributes, modal: FlowStyleAttributes?) {
        self.screen = screen
        self.stack = stack
        self.modal = modal
    }
}
