// Sheets, full-screen covers and presentation configuration (stand-in: declarations only, for
// type-checking SwiftUI code on platforms without SwiftUI; never linked on Apple platforms; runtime
// behaviour is not modelled: nothing is presented, and presentation timing is not checked).

#if !canImport(SwiftUI)

/// A type that represents a height where a sheet naturally rests.
public struct PresentationDetent: Hashable, Sendable {
    /// How the detent is defined; the stand-in keeps it only for equality.
    enum Kind: Hashable, Sendable {
        case medium
        case large
        case fraction(CGFloat)
        case height(CGFloat)
    }

    /// How the detent is defined.
    let kind: Kind

    /// The system detent for a sheet that's approximately half the height of the screen.
    public static let medium = PresentationDetent(kind: .medium)

    /// The system detent for a sheet at full height.
    public static let large = PresentationDetent(kind: .large)

    /// A custom detent with the specified fractional height.
    public static func fraction(_ fraction: CGFloat) -> PresentationDetent {
        PresentationDetent(kind: .fraction(fraction))
    }

    /// A custom detent with the specified height.
    public static func height(_ height: CGFloat) -> PresentationDetent {
        PresentationDetent(kind: .height(height))
    }
}

extension View {
    /// Presents a sheet when a binding to a Boolean value that you provide is true.
    nonisolated public func sheet<Content: View>(
        isPresented: Binding<Bool>,
        onDismiss: (() -> Void)? = nil,
        @ViewBuilder content: @escaping () -> Content
    ) -> some View {
        standInModified()
    }

    /// Presents a sheet using the given item as a data source for the sheet's content.
    nonisolated public func sheet<Item: Identifiable, Content: View>(
        item: Binding<Item?>,
        onDismiss: (() -> Void)? = nil,
        @ViewBuilder content: @escaping (Item) -> Content
    ) -> some View {
        standInModified()
    }

    /// Presents a modal view that covers as much of the screen as possible when a binding is true.
    @available(macOS, unavailable)
    nonisolated public func fullScreenCover<Content: View>(
        isPresented: Binding<Bool>,
        onDismiss: (() -> Void)? = nil,
        @ViewBuilder content: @escaping () -> Content
    ) -> some View {
        standInModified()
    }

    /// Presents a modal view that covers as much of the screen as possible, using an item binding.
    @available(macOS, unavailable)
    nonisolated public func fullScreenCover<Item: Identifiable, Content: View>(
        item: Binding<Item?>,
        onDismiss: (() -> Void)? = nil,
        @ViewBuilder content: @escaping (Item) -> Content
    ) -> some View {
        standInModified()
    }

    /// Sets the available detents for the enclosing sheet.
    nonisolated public func presentationDetents(_ detents: Set<PresentationDetent>) -> some View {
        standInModified()
    }

    /// Sets the available detents for the enclosing sheet, with programmatic control of the selection.
    nonisolated public func presentationDetents(
        _ detents: Set<PresentationDetent>,
        selection: Binding<PresentationDetent>
    ) -> some View {
        standInModified()
    }

    /// Sets the visibility of the drag indicator on top of a sheet.
    nonisolated public func presentationDragIndicator(_ visibility: Visibility) -> some View {
        standInModified()
    }

    /// Conditionally prevents interactive dismissal of presentations like popovers and sheets.
    nonisolated public func interactiveDismissDisabled(_ isDisabled: Bool = true) -> some View {
        standInModified()
    }
}

#endif
