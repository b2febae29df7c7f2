// Appearance modifiers (stand-in: declarations only, for type-checking SwiftUI code on platforms
// without SwiftUI; never linked on Apple platforms; runtime behaviour is not modelled: nothing is
// drawn).

#if !canImport(SwiftUI)

extension View {
    /// Sets the preferred color scheme for this presentation.
    nonisolated public func preferredColorScheme(_ colorScheme: ColorScheme?) -> some View { standInModified() }

    /// Sets the alignment of a text view that contains multiple lines of text.
    nonisolated public func multilineTextAlignment(_ alignment: TextAlignment) -> some View { standInModified() }

    /// Sets the tint color within this view.
    nonisolated public func tint(_ tint: Color?) -> some View { standInModified() }

    /// Sets the tint within this view to a shape style.
    nonisolated public func tint<S: ShapeStyle>(_ tint: S?) -> some View { standInModified() }

    /// Sets the view's background to a style.
    nonisolated public func background<S: ShapeStyle>(
        _ style: S,
        ignoresSafeAreaEdges edges: Edge.Set = .all
    ) -> some View {
        standInModified()
    }

    /// Sets the view's background to the default background style.
    nonisolated public func background(ignoresSafeAreaEdges edges: Edge.Set = .all) -> some View {
        standInModified()
    }

    /// Layers the views that you specify behind this view.
    nonisolated public func background<V: View>(
        alignment: Alignment = .center,
        @ViewBuilder content: () -> V
    ) -> some View {
        standInModified()
    }

    /// Layers the given view behind this view (disfavoured so that a `Color` picks the style overload).
    ///
    /// Deprecated on every Apple platform in the 27 SDKs (a warning once a deployment target
    /// reaches 27; nothing on Linux): write `background { view }`.
    @_disfavoredOverload
    @available(iOS, introduced: 13.0, deprecated: 27.0, message: "Use `background(alignment:content:)`.")
    @available(macOS, introduced: 10.15, deprecated: 27.0, message: "Use `background(alignment:content:)`.")
    @available(tvOS, introduced: 13.0, deprecated: 27.0, message: "Use `background(alignment:content:)`.")
    @available(watchOS, introduced: 6.0, deprecated: 27.0, message: "Use `background(alignment:content:)`.")
    @available(visionOS, introduced: 1.0, deprecated: 27.0, message: "Use `background(alignment:content:)`.")
    nonisolated public func background<Background: View>(
        _ background: Background,
        alignment: Alignment = .center
    ) -> some View {
        standInModified()
    }

    /// Layers a secondary view in front of this view (disfavoured so that a `Color` picks the style overload).
    ///
    /// Deprecated on every Apple platform in the 27 SDKs (a warning once a deployment target
    /// reaches 27; nothing on Linux): write `overlay { view }`.
    @_disfavoredOverload
    @available(iOS, introduced: 13.0, deprecated: 27.0, message: "Use `overlay(alignment:content:)`.")
    @available(macOS, introduced: 10.15, deprecated: 27.0, message: "Use `overlay(alignment:content:)`.")
    @available(tvOS, introduced: 13.0, deprecated: 27.0, message: "Use `overlay(alignment:content:)`.")
    @available(watchOS, introduced: 6.0, deprecated: 27.0, message: "Use `overlay(alignment:content:)`.")
    @available(visionOS, introduced: 1.0, deprecated: 27.0, message: "Use `overlay(alignment:content:)`.")
    nonisolated public func overlay<Overlay: View>(
        _ overlay: Overlay,
        alignment: Alignment = .center
    ) -> some View {
        standInModified()
    }

    /// Layers the views that you specify in front of this view.
    nonisolated public func overlay<V: View>(
        alignment: Alignment = .center,
        @ViewBuilder content: () -> V
    ) -> some View {
        standInModified()
    }

    /// Layers the specified style in front of this view.
    nonisolated public func overlay<S: ShapeStyle>(
        _ style: S,
        ignoresSafeAreaEdges edges: Edge.Set = .all
    ) -> some View {
        standInModified()
    }

    /// Sets the color of the foreground elements displayed by this view.
    nonisolated public func foregroundColor(_ color: Color?) -> some View { standInModified() }

    /// Sets a view's foreground elements to use a given style.
    nonisolated public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { standInModified() }

    /// Sets the default font for text in this view.
    nonisolated public func font(_ font: Font?) -> some View { standInModified() }

    /// Sets the transparency of this view.
    nonisolated public func opacity(_ opacity: Double) -> some View { standInModified() }

    /// Hides this view unconditionally.
    nonisolated public func hidden() -> some View { standInModified() }

    /// Adds a condition that controls whether users can interact with this view.
    nonisolated public func disabled(_ disabled: Bool) -> some View { standInModified() }

    /// Binds a view's identity to the given proxy value.
    nonisolated public func id<ID: Hashable>(_ id: ID) -> some View { standInModified() }
}

#endif
