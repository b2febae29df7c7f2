// ScrollView, Axis and Divider (stand-in: declarations only, for type-checking SwiftUI code on
// platforms without SwiftUI; never linked on Apple platforms; runtime behaviour is not modelled).

#if !canImport(SwiftUI)

/// The horizontal or vertical dimension in a 2D coordinate system.
public enum Axis: Int8, CaseIterable, Hashable, Sendable {
    /// The horizontal dimension.
    case horizontal
    /// The vertical dimension.
    case vertical

    /// An efficient set of axes.
    public struct Set: OptionSet, Hashable, Sendable {
        /// The raw bits of the set.
        public let rawValue: Int8

        /// Creates a set of axes from raw bits.
        public init(rawValue: Int8) { self.rawValue = rawValue }

        /// The horizontal axis.
        public static let horizontal = Set(rawValue: 1 << 0)
        /// The vertical axis.
        public static let vertical = Set(rawValue: 1 << 1)
    }
}

/// A scrollable view.
nonisolated public struct ScrollView<Content: View>: View {
    /// The scroll view's content.
    public var content: Content

    /// The scrollable axes of the scroll view.
    public var axes: Axis.Set

    /// Creates a new instance that's scrollable in the direction of the given axis set.
    public init(_ axes: Axis.Set = .vertical, showsIndicators: Bool = true, @ViewBuilder content: () -> Content) {
        self.axes = axes
        self.content = content()
    }

    /// A scroll view is a primitive view.
    public typealias Body = Never
}

/// A visual element that can be used to separate other content.
nonisolated public struct Divider: View, Sendable {
    /// Creates a divider.
    public init() {}

    /// A divider is a primitive view.
    public typealias Body = Never
}

#endif
