// Layout modifiers (stand-in: declarations only, for type-checking SwiftUI code on platforms
// without SwiftUI; never linked on Apple platforms; runtime behaviour is not modelled: nothing is
// laid out).

#if !canImport(SwiftUI)

extension View {
    /// Positions this view within an invisible frame with the specified size.
    nonisolated public func frame(
        width: CGFloat? = nil,
        height: CGFloat? = nil,
        alignment: Alignment = .center
    ) -> some View {
        standInModified()
    }

    /// Positions this view within an invisible frame having the specified size constraints.
    nonisolated public func frame(
        minWidth: CGFloat? = nil,
        idealWidth: CGFloat? = nil,
        maxWidth: CGFloat? = nil,
        minHeight: CGFloat? = nil,
        idealHeight: CGFloat? = nil,
        maxHeight: CGFloat? = nil,
        alignment: Alignment = .center
    ) -> some View {
        standInModified()
    }

    /// Adds a different padding amount to each edge of this view.
    nonisolated public func padding(_ insets: EdgeInsets) -> some View { standInModified() }

    /// Adds an equal padding amount to specific edges of this view.
    nonisolated public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View {
        standInModified()
    }

    /// Adds a specific padding amount to each edge of this view.
    nonisolated public func padding(_ length: CGFloat) -> some View { standInModified() }

    /// Expands the safe area of a view.
    nonisolated public func ignoresSafeArea(
        _ regions: SafeAreaRegions = .all,
        edges: Edge.Set = .all
    ) -> some View {
        standInModified()
    }

    /// Controls the display order of overlapping views.
    nonisolated public func zIndex(_ value: Double) -> some View { standInModified() }
}

#endif
