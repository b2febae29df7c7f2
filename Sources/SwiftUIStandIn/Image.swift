// Image and Label (stand-in: declarations only, for type-checking SwiftUI code on platforms
// without SwiftUI; never linked on Apple platforms; runtime behaviour is not modelled: no image is
// loaded).

#if !canImport(SwiftUI)

/// A view that displays an image.
nonisolated public struct Image: View, Equatable, Sendable {
    /// The image's name; the stand-in keeps it only for equality.
    let name: String

    /// Creates a system symbol image.
    public init(systemName: String) { self.name = "system:\(systemName)" }

    /// Creates a labeled image from an asset catalog.
    public init(_ name: String, bundle: Bundle? = nil) { self.name = name }

    /// Sets the mode by which SwiftUI resizes an image to fit its space.
    public func resizable(capInsets: EdgeInsets = EdgeInsets(), resizingMode: Image.ResizingMode = .stretch) -> Image {
        self
    }

    /// The modes that SwiftUI uses to resize an image to fit within its containing view.
    public enum ResizingMode: Hashable, Sendable {
        /// A mode to repeat the image at its original size.
        case tile
        /// A mode to enlarge or reduce the size of an image so that it fills the available space.
        case stretch
    }

    /// An image is a primitive view.
    public typealias Body = Never
}

/// A standard label for user interface items, consisting of an icon with a title.
nonisolated public struct Label<Title: View, Icon: View>: View {
    /// The label's title.
    let title: Title

    /// The label's icon.
    let icon: Icon

    /// Creates a label with a custom title and icon.
    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {
        self.title = title()
        self.icon = icon()
    }

    /// A label is a primitive view.
    public typealias Body = Never
}

extension Label where Title == Text, Icon == Image {
    /// Creates a label with a system icon image and a title generated from a localized string key.
    public init(_ titleKey: LocalizedStringKey, systemImage name: String) {
        self.init(title: { Text(titleKey) }, icon: { Image(systemName: name) })
    }

    /// Creates a label with a system icon image and a title generated from a string.
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, systemImage name: String) {
        self.init(title: { Text(title) }, icon: { Image(systemName: name) })
    }

    /// Creates a label with an icon image and a title generated from a localized string key.
    public init(_ titleKey: LocalizedStringKey, image name: String) {
        self.init(title: { Text(titleKey) }, icon: { Image(name) })
    }
}

#endif
