// TabView and the tab modifiers (stand-in: declarations only, for type-checking SwiftUI code on
// platforms without SwiftUI; never linked on Apple platforms; runtime behaviour is not modelled:
// no tab bar is drawn and no selection is written). Signatures as in iOS 16.

#if !canImport(SwiftUI)

/// A view that switches between multiple child views using interactive user interface elements.
nonisolated public struct TabView<SelectionValue: Hashable, Content: View>: View {
    /// The tabs' views.
    let content: Content

    /// Creates an instance that selects from content associated with `Selection` values.
    public init(selection: Binding<SelectionValue>?, @ViewBuilder content: () -> Content) {
        self.content = content()
    }

    /// A tab view is a primitive view.
    public typealias Body = Never
}

extension TabView where SelectionValue == Int {
    /// Creates a tab view that manages its own selection.
    public init(@ViewBuilder content: () -> Content) {
        self.content = content()
    }
}

extension View {
    /// Sets the tab bar item associated with this view.
    ///
    /// Deprecated in the 27 SDKs but on visionOS (a warning once a deployment target reaches 27;
    /// nothing on Linux); its replacement, `Tab`, needs iOS 18, macOS 15, tvOS 18 and watchOS 11.
    @available(iOS, introduced: 13.0, deprecated: 27.0, message: "Use `Tab` in a `TabView`.")
    @available(macOS, introduced: 10.15, deprecated: 27.0, message: "Use `Tab` in a `TabView`.")
    @available(tvOS, introduced: 13.0, deprecated: 27.0, message: "Use `Tab` in a `TabView`.")
    @available(watchOS, introduced: 7.0, deprecated: 27.0, message: "Use `Tab` in a `TabView`.")
    nonisolated public func tabItem<V: View>(@ViewBuilder _ label: () -> V) -> some View {
        standInModified()
    }

    /// Sets the unique tag value of this view (a `TabView` selects a tab by it).
    nonisolated public func tag<V: Hashable>(_ tag: V) -> some View {
        standInModified()
    }
}

#endif
