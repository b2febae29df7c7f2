// Text, localized string keys and text alignment (stand-in: declarations only, for type-checking
// SwiftUI code on platforms without SwiftUI; never linked on Apple platforms; runtime behaviour is
// not modelled).

#if !canImport(SwiftUI)

/// A value that SwiftUI can format inside a localized string interpolation.
public protocol _FormatSpecifiable: Equatable {}

// The standard numeric types can be interpolated into a localized string key.
extension Int: _FormatSpecifiable {}
extension Int8: _FormatSpecifiable {}
extension Int16: _FormatSpecifiable {}
extension Int32: _FormatSpecifiable {}
extension Int64: _FormatSpecifiable {}
extension UInt: _FormatSpecifiable {}
extension UInt8: _FormatSpecifiable {}
extension UInt16: _FormatSpecifiable {}
extension UInt32: _FormatSpecifiable {}
extension UInt64: _FormatSpecifiable {}
extension Float: _FormatSpecifiable {}
extension Double: _FormatSpecifiable {}
extension CGFloat: _FormatSpecifiable {}

/// The key used to look up an entry in a strings file or strings dictionary file.
public struct LocalizedStringKey: Equatable, Sendable, ExpressibleByStringInterpolation {
    /// The key text; the stand-in keeps it only for equality.
    let key: String

    /// Creates a localized string key from a string.
    public init(_ value: String) { self.key = value }

    /// Creates a localized string key from a string literal.
    public init(stringLiteral value: String) { self.key = value }

    /// Creates a localized string key from an interpolated string.
    public init(stringInterpolation: StringInterpolation) { self.key = stringInterpolation.text }

    /// The interpolations a localized string key accepts.
    public struct StringInterpolation: StringInterpolationProtocol {
        /// The text built so far.
        var text = ""

        /// Creates an empty interpolation.
        public init(literalCapacity: Int, interpolationCount: Int) {}

        /// Appends a literal segment.
        public mutating func appendLiteral(_ literal: String) { text += literal }

        /// Appends a string.
        public mutating func appendInterpolation(_ string: String) { text += string }

        /// Appends a text view.
        public mutating func appendInterpolation(_ text: Text) { self.text += "%@" }

        /// Appends a number or other formattable value.
        public mutating func appendInterpolation<T: _FormatSpecifiable>(_ value: T) { text += "%@" }

        /// Appends a number or other formattable value with a printf-style specifier.
        public mutating func appendInterpolation<T: _FormatSpecifiable>(_ value: T, specifier: String) {
            text += specifier
        }

        /// Appends a value formatted by a format style.
        public mutating func appendInterpolation<F: FormatStyle>(
            _ input: F.FormatInput,
            format: F
        ) where F.FormatInput: Equatable, F.FormatOutput == String {
            text += "%@"
        }

        /// Appends a Foundation value with an optional formatter.
        public mutating func appendInterpolation<Subject: ReferenceConvertible>(
            _ subject: Subject,
            formatter: Formatter? = nil
        ) {
            text += "%@"
        }
    }
}

/// A view that displays one or more lines of read-only text.
nonisolated public struct Text: View, Equatable, Sendable {
    /// The text content (a localization key or a verbatim string); the stand-in keeps it for equality.
    let content: String

    /// Creates a text view that displays localized content identified by a key.
    public init(
        _ key: LocalizedStringKey,
        tableName: String? = nil,
        bundle: Bundle? = nil,
        comment: StaticString? = nil
    ) {
        self.content = key.key
    }

    /// Creates a text view that displays a stored string without localization.
    @_disfavoredOverload
    public init<S: StringProtocol>(_ content: S) { self.content = String(content) }

    /// Creates a text view that displays a string literal without localization.
    public init(verbatim content: String) { self.content = content }

    /// Sets the default font for text in the view.
    public func font(_ font: Font?) -> Text { self }

    /// Sets the font weight of the text.
    public func fontWeight(_ weight: Font.Weight?) -> Text { self }

    /// Applies a bold font weight to the text.
    public func bold() -> Text { self }

    /// Applies italics to the text.
    public func italic() -> Text { self }

    /// Sets the color of the text displayed by this view.
    public func foregroundColor(_ color: Color?) -> Text { self }

    /// Concatenates the text in two text views in a new text view.
    public static func + (lhs: Text, rhs: Text) -> Text { Text(verbatim: lhs.content + rhs.content) }

    /// A text view is a primitive view.
    public typealias Body = Never
}

/// An alignment position for text along the horizontal axis.
public enum TextAlignment: Hashable, CaseIterable, Sendable {
    /// Text aligned to the leading edge.
    case leading
    /// Text centred.
    case center
    /// Text aligned to the trailing edge.
    case trailing
}

#endif
