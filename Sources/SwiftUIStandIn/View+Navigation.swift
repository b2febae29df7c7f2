// Navigation and toolbar modifiers (stand-in: declarations only, for type-checking SwiftUI code on
// platforms without SwiftUI; never linked on Apple platforms; runtime behaviour is not modelled).

#if !canImport(SwiftUI)

/// The visibility of a UI element, chosen automatically based on the platform and context.
public enum Visibility: Hashable, CaseIterable, Sendable {
    /// The element may be visible or hidden depending on the policies of the component.
    case automatic
    /// The element may be visible.
    case visible
    /// The element may be hidden.
    case hidden
}

/// The placement of a toolbar.
public struct ToolbarPlacement: Hashable, Sendable {
    /// The bar's name; the stand-in keeps it only for equality.
    let name: String

    /// The primary toolbar.
    public static var automatic: ToolbarPlacement { ToolbarPlacement(name: "automatic") }

    /// The bottom toolbar of an app.
    @available(macOS, unavailable)
    public static var bottomBar: ToolbarPlacement { ToolbarPlacement(name: "bottomBar") }

    /// The navigation bar of an app.
    @available(macOS, unavailable)
    public static var navigationBar: ToolbarPlacement { ToolbarPlacement(name: "navigationBar") }

    /// The tab bar of an app.
    @available(macOS, unavailable)
    public static var tabBar: ToolbarPlacement { ToolbarPlacement(name: "tabBar") }
}

/// A configuration for a navigation bar that represents a view at the top of a navigation stack.
public struct NavigationBarItem: Sendable {
    /// A style for displaying the title of a navigation bar.
    public enum TitleDisplayMode: Hashable, Sendable {
        /// Inherit the display mode from the previous navigation item.
        case automatic
        /// Display the title within the standard bounds of the navigation bar.
        case inline
        /// Display a large title within an expanded navigation bar.
        case large
    }
}

extension View {
    /// Associates a destination view with a presented data type for use within a navigation stack.
    nonisolated public func navigationDestination<D: Hashable, C: View>(
        for data: D.Type,
        @ViewBuilder destination: @escaping (D) -> C
    ) -> some View {
        standInModified()
    }

    /// Associates a destination view with a Boolean binding that pushes it onto a navigation stack.
    nonisolated public func navigationDestination<V: View>(
        isPresented: Binding<Bool>,
        @ViewBuilder destination: () -> V
    ) -> some View {
        standInModified()
    }

    /// Associates a destination view with an optional item binding that pushes it onto a stack.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    nonisolated public func navigationDestination<D: Hashable, C: View>(
        item: Binding<D?>,
        @ViewBuilder destination: @escaping (D) -> C
    ) -> some View {
        standInModified()
    }

    /// Configures the view's title for purposes of navigation, using a text view.
    nonisolated public func navigationTitle(_ title: Text) -> some View { standInModified() }

    /// Configures the view's title for purposes of navigation, using a localized string key.
    nonisolated public func navigationTitle(_ titleKey: LocalizedStringKey) -> some View { standInModified() }

    /// Configures the view's title for purposes of navigation, using a string.
    @_disfavoredOverload
    nonisolated public func navigationTitle<S: StringProtocol>(_ title: S) -> some View { standInModified() }

    /// Configures the view's title for purposes of navigation, using a string binding.
    nonisolated public func navigationTitle(_ title: Binding<String>) -> some View { standInModified() }

    /// Hides the navigation bar back button for the view.
    nonisolated public func navigationBarBackButtonHidden(_ hidesBackButton: Bool = true) -> some View {
        standInModified()
    }

    /// Configures the title display mode for this view.
    @available(macOS, unavailable)
    nonisolated public func navigationBarTitleDisplayMode(
        _ displayMode: NavigationBarItem.TitleDisplayMode
    ) -> some View {
        standInModified()
    }

    /// Specifies the visibility of a bar managed by SwiftUI.
    ///
    /// Deprecated in the 27 SDKs but on visionOS (a warning once a deployment target reaches 27;
    /// nothing on Linux); its replacement, `toolbarVisibility(_:for:)`, needs iOS 18, macOS 15,
    /// tvOS 18 and watchOS 11.
    @available(iOS, introduced: 16.0, deprecated: 27.0, message: "Use `toolbarVisibility(_:for:)`.")
    @available(macOS, introduced: 13.0, deprecated: 27.0, message: "Use `toolbarVisibility(_:for:)`.")
    @available(tvOS, introduced: 16.0, deprecated: 27.0, message: "Use `toolbarVisibility(_:for:)`.")
    @available(watchOS, introduced: 9.0, deprecated: 27.0, message: "Use `toolbarVisibility(_:for:)`.")
    nonisolated public func toolbar(_ visibility: Visibility, for bars: ToolbarPlacement...) -> some View {
        standInModified()
    }

    /// Populates the toolbar or navigation bar with the specified views.
    nonisolated public func toolbar<Content: View>(@ViewBuilder content: () -> Content) -> some View {
        standInModified()
    }
}

#endif
