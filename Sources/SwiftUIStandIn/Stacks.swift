// Stacks, groups and basic views (stand-in: declarations only, for type-checking SwiftUI code on
// platforms without SwiftUI; never linked on Apple platforms; runtime behaviour is not modelled).

#if !canImport(SwiftUI)

/// A view that doesn't contain any content.
nonisolated public struct EmptyView: View, Sendable {
    /// Creates an empty view.
    public init() {}

    /// An empty view is a primitive view.
    public typealias Body = Never
}

/// A type-erased view.
nonisolated public struct AnyView: View {
    /// The erased view.
    let storage: Any

    /// Creates a type-erased view from a view.
    public init<V: View>(_ view: V) { self.storage = view }

    /// Creates a type-erased view from a view.
    public init<V: View>(erasing view: V) { self.storage = view }

    /// Creates a type-erased view from a value that might be a view.
    public init?(_fromValue value: Any) {
        guard value is any View else { return nil }
        self.storage = value
    }

    /// A type-erased view is a primitive view.
    public typealias Body = Never
}

/// A view that overlays its subviews, aligning them in both axes.
nonisolated public struct ZStack<Content: View>: View {
    /// The stacked views.
    let content: Content

    /// Creates a stack with the given alignment and content.
    public init(alignment: Alignment = .center, @ViewBuilder content: () -> Content) {
        self.content = content()
    }

    /// A stack is a primitive view.
    public typealias Body = Never
}

/// A view that arranges its subviews in a vertical line.
nonisolated public struct VStack<Content: View>: View {
    /// The stacked views.
    let content: Content

    /// Creates a stack with the given alignment, spacing and content.
    public init(
        alignment: HorizontalAlignment = .center,
        spacing: CGFloat? = nil,
        @ViewBuilder content: () -> Content
    ) {
        self.content = content()
    }

    /// A stack is a primitive view.
    public typealias Body = Never
}

/// A view that arranges its subviews in a horizontal line.
nonisolated public struct HStack<Content: View>: View {
    /// The stacked views.
    let content: Content

    /// Creates a stack with the given alignment, spacing and content.
    public init(
        alignment: VerticalAlignment = .center,
        spacing: CGFloat? = nil,
        @ViewBuilder content: () -> Content
    ) {
        self.content = content()
    }

    /// A stack is a primitive view.
    public typealias Body = Never
}

/// A type that collects multiple instances of a content type into a single unit.
nonisolated public struct Group<Content> {
    /// The grouped content.
    let content: Content
}

extension Group: View where Content: View {
    /// A group is a primitive view.
    public typealias Body = Never

    /// Creates a group of views.
    public init(@ViewBuilder content: () -> Content) {
        self.content = content()
    }
}

/// A flexible space that expands along the major axis of its containing stack.
nonisolated public struct Spacer: View, Sendable {
    /// The minimum length this spacer can be shrunk to, along the axis of expansion.
    public var minLength: CGFloat?

    /// Creates a spacer with an optional minimum length.
    public init(minLength: CGFloat? = nil) { self.minLength = minLength }

    /// A spacer is a primitive view.
    public typealias Body = Never
}

#endif
