// Font (stand-in: declarations only, for type-checking SwiftUI code on platforms without SwiftUI;
// never linked on Apple platforms; runtime behaviour is not modelled).

#if !canImport(SwiftUI)

/// An environment-dependent font.
public struct Font: Hashable, Sendable {
    /// A description of the font; the stand-in keeps it only for equality.
    let name: String

    /// A font with the large title text style.
    public static let largeTitle = Font(name: "largeTitle")
    /// A font with the title text style.
    public static let title = Font(name: "title")
    /// A font for second-level hierarchical headings.
    public static let title2 = Font(name: "title2")
    /// A font for third-level hierarchical headings.
    public static let title3 = Font(name: "title3")
    /// A font with the headline text style.
    public static let headline = Font(name: "headline")
    /// A font with the subheadline text style.
    public static let subheadline = Font(name: "subheadline")
    /// A font with the body text style.
    public static let body = Font(name: "body")
    /// A font with the callout text style.
    public static let callout = Font(name: "callout")
    /// A font with the footnote text style.
    public static let footnote = Font(name: "footnote")
    /// A font with the caption text style.
    public static let caption = Font(name: "caption")
    /// An alternate font with the caption text style.
    public static let caption2 = Font(name: "caption2")

    /// Gets a system font that uses the specified text style, design and weight.
    public static func system(_ style: Font.TextStyle, design: Font.Design? = nil, weight: Font.Weight? = nil) -> Font {
        Font(name: "system-\(style)")
    }

    /// Gets a system font with the given size, weight and design.
    public static func system(size: CGFloat, weight: Font.Weight? = nil, design: Font.Design? = nil) -> Font {
        Font(name: "system-\(size)")
    }

    /// Adjusts the weight of a font.
    public func weight(_ weight: Font.Weight) -> Font { self }

    /// Adds bold styling to the font.
    public func bold() -> Font { self }

    /// Adds italics to the font.
    public func italic() -> Font { self }

    /// Returns a fixed-width font from the same family as the base font.
    public func monospaced() -> Font { self }

    /// A dynamic text style to use for fonts.
    public enum TextStyle: Hashable, CaseIterable, Sendable {
        /// The font style for large titles.
        case largeTitle
        /// The font used for first-level hierarchical headings.
        case title
        /// The font used for second-level hierarchical headings.
        case title2
        /// The font used for third-level hierarchical headings.
        case title3
        /// The font used for headings.
        case headline
        /// The font used for subheadings.
        case subheadline
        /// The font used for body text.
        case body
        /// The font used for callouts.
        case callout
        /// The font used in footnotes.
        case footnote
        /// The font used for standard captions.
        case caption
        /// The font used for alternate captions.
        case caption2
    }

    /// A design to use for fonts.
    public enum Design: Hashable, Sendable {
        /// The default system font design.
        case `default`
        /// The serif font design.
        case serif
        /// The rounded font design.
        case rounded
        /// The monospaced font design.
        case monospaced
    }

    /// A weight to use for fonts.
    public struct Weight: Hashable, Sendable {
        /// The weight value; the stand-in keeps it only for equality.
        let value: Double

        /// The ultra-light weight.
        public static let ultraLight = Weight(value: -0.8)
        /// The thin weight.
        public static let thin = Weight(value: -0.6)
        /// The light weight.
        public static let light = Weight(value: -0.4)
        /// The regular weight.
        public static let regular = Weight(value: 0)
        /// The medium weight.
        public static let medium = Weight(value: 0.23)
        /// The semibold weight.
        public static let semibold = Weight(value: 0.3)
        /// The bold weight.
        public static let bold = Weight(value: 0.4)
        /// The heavy weight.
        public static let heavy = Weight(value: 0.56)
        /// The black weight.
        public static let black = Weight(value: 0.62)
    }
}

#endif
