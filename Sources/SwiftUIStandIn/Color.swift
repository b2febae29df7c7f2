// Color, shape styles and color schemes (stand-in: declarations only, for type-checking SwiftUI
// code on platforms without SwiftUI; never linked on Apple platforms; runtime behaviour is not
// modelled).

#if !canImport(SwiftUI)

/// A color or pattern to use when rendering a shape.
public protocol ShapeStyle: Sendable {}

/// A representation of a color that adapts to a given context.
nonisolated public struct Color: Hashable, CustomStringConvertible, Sendable, View, ShapeStyle {
    /// A textual description of the color.
    public let description: String

    /// Creates a color named by the stand-in itself.
    init(named description: String) { self.description = description }

    /// Creates a constant color from red, green and blue components.
    public init(
        _ colorSpace: Color.RGBColorSpace = .sRGB,
        red: Double,
        green: Double,
        blue: Double,
        opacity: Double = 1
    ) {
        self.description = "RGBA(\(red), \(green), \(blue), \(opacity))"
    }

    /// Creates a constant grayscale color.
    public init(_ colorSpace: Color.RGBColorSpace = .sRGB, white: Double, opacity: Double = 1) {
        self.description = "White(\(white), \(opacity))"
    }

    /// Creates a constant color from hue, saturation and brightness values.
    public init(hue: Double, saturation: Double, brightness: Double, opacity: Double = 1) {
        self.description = "HSBA(\(hue), \(saturation), \(brightness), \(opacity))"
    }

    /// Creates a color from a color set in an asset catalog.
    public init(_ name: String, bundle: Bundle? = nil) { self.description = name }

    /// Multiplies the opacity of the color by the given amount.
    public func opacity(_ opacity: Double) -> Color { Color(named: "\(description) @ \(opacity)") }

    /// A color that reflects the accent color of the system or app.
    public static var accentColor: Color { Color(named: "accentColor") }

    /// A context-dependent red color suitable for use in UI elements.
    public static let red = Color(named: "red")
    /// A context-dependent orange color suitable for use in UI elements.
    public static let orange = Color(named: "orange")
    /// A context-dependent yellow color suitable for use in UI elements.
    public static let yellow = Color(named: "yellow")
    /// A context-dependent green color suitable for use in UI elements.
    public static let green = Color(named: "green")
    /// A context-dependent mint color suitable for use in UI elements.
    public static let mint = Color(named: "mint")
    /// A context-dependent teal color suitable for use in UI elements.
    public static let teal = Color(named: "teal")
    /// A context-dependent cyan color suitable for use in UI elements.
    public static let cyan = Color(named: "cyan")
    /// A context-dependent blue color suitable for use in UI elements.
    public static let blue = Color(named: "blue")
    /// A context-dependent indigo color suitable for use in UI elements.
    public static let indigo = Color(named: "indigo")
    /// A context-dependent purple color suitable for use in UI elements.
    public static let purple = Color(named: "purple")
    /// A context-dependent pink color suitable for use in UI elements.
    public static let pink = Color(named: "pink")
    /// A context-dependent brown color suitable for use in UI elements.
    public static let brown = Color(named: "brown")
    /// A white color suitable for use in UI elements.
    public static let white = Color(named: "white")
    /// A context-dependent gray color suitable for use in UI elements.
    public static let gray = Color(named: "gray")
    /// A black color suitable for use in UI elements.
    public static let black = Color(named: "black")
    /// A clear color suitable for use in UI elements.
    public static let clear = Color(named: "clear")
    /// The color to use for primary content.
    public static let primary = Color(named: "primary")
    /// The color to use for secondary content.
    public static let secondary = Color(named: "secondary")

    /// A profile that specifies how to interpret a color value for display.
    public enum RGBColorSpace: Hashable, Sendable {
        /// The extended red, green, blue (sRGB) color space.
        case sRGB
        /// The extended sRGB color space with a linear transfer function.
        case sRGBLinear
        /// The Display P3 color space.
        case displayP3
    }

    /// A color is a primitive view.
    public typealias Body = Never
}

extension ShapeStyle where Self == Color {
    /// A context-dependent red color suitable for use in UI elements.
    public static var red: Color { Color.red }
    /// A context-dependent orange color suitable for use in UI elements.
    public static var orange: Color { Color.orange }
    /// A context-dependent yellow color suitable for use in UI elements.
    public static var yellow: Color { Color.yellow }
    /// A context-dependent green color suitable for use in UI elements.
    public static var green: Color { Color.green }
    /// A context-dependent mint color suitable for use in UI elements.
    public static var mint: Color { Color.mint }
    /// A context-dependent teal color suitable for use in UI elements.
    public static var teal: Color { Color.teal }
    /// A context-dependent cyan color suitable for use in UI elements.
    public static var cyan: Color { Color.cyan }
    /// A context-dependent blue color suitable for use in UI elements.
    public static var blue: Color { Color.blue }
    /// A context-dependent indigo color suitable for use in UI elements.
    public static var indigo: Color { Color.indigo }
    /// A context-dependent purple color suitable for use in UI elements.
    public static var purple: Color { Color.purple }
    /// A context-dependent pink color suitable for use in UI elements.
    public static var pink: Color { Color.pink }
    /// A context-dependent brown color suitable for use in UI elements.
    public static var brown: Color { Color.brown }
    /// A white color suitable for use in UI elements.
    public static var white: Color { Color.white }
    /// A context-dependent gray color suitable for use in UI elements.
    public static var gray: Color { Color.gray }
    /// A black color suitable for use in UI elements.
    public static var black: Color { Color.black }
    /// A clear color suitable for use in UI elements.
    public static var clear: Color { Color.clear }
}

/// A shape style that maps to one of the numbered content styles (primary, secondary, ...).
public struct HierarchicalShapeStyle: ShapeStyle {
    /// The level in the hierarchy, from 0 (primary).
    let level: Int

    /// A shape style that maps to the first level of the current content style.
    public static let primary = HierarchicalShapeStyle(level: 0)
    /// A shape style that maps to the second level of the current content style.
    public static let secondary = HierarchicalShapeStyle(level: 1)
    /// A shape style that maps to the third level of the current content style.
    public static let tertiary = HierarchicalShapeStyle(level: 2)
    /// A shape style that maps to the fourth level of the current content style.
    public static let quaternary = HierarchicalShapeStyle(level: 3)
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    /// A shape style that maps to the first level of the current content style.
    public static var primary: HierarchicalShapeStyle { .primary }
    /// A shape style that maps to the second level of the current content style.
    public static var secondary: HierarchicalShapeStyle { .secondary }
    /// A shape style that maps to the third level of the current content style.
    public static var tertiary: HierarchicalShapeStyle { .tertiary }
    /// A shape style that maps to the fourth level of the current content style.
    public static var quaternary: HierarchicalShapeStyle { .quaternary }
}

/// The possible color schemes, corresponding to the light and dark appearances.
public enum ColorScheme: Hashable, CaseIterable, Sendable {
    /// The color scheme that corresponds to a light appearance.
    case light
    /// The color scheme that corresponds to a dark appearance.
    case dark
}

#endif
