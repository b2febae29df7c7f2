// Button and ProgressView (stand-in: declarations only, for type-checking SwiftUI code on
// platforms without SwiftUI; never linked on Apple platforms; runtime behaviour is not modelled).

#if !canImport(SwiftUI)

/// A value that describes the purpose of a button.
public struct ButtonRole: Equatable, Sendable {
    /// The role's name; the stand-in keeps it only for equality.
    let name: String

    /// A role that indicates a destructive button.
    public static let destructive = ButtonRole(name: "destructive")
    /// A role that indicates a button that cancels an operation.
    public static let cancel = ButtonRole(name: "cancel")
}

/// A control that initiates an action.
nonisolated public struct Button<Label: View>: View {
    /// The button's label.
    let label: Label

    /// Creates a button that displays a custom label.
    @preconcurrency
    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
        self.label = label()
    }

    /// Creates a button with a specified role that displays a custom label.
    @preconcurrency
    public init(role: ButtonRole?, action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
        self.label = label()
    }

    /// A button is a primitive view.
    public typealias Body = Never
}

extension Button where Label == Text {
    /// Creates a button that generates its label from a localized string key.
    @preconcurrency
    public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {
        self.label = Text(titleKey)
    }

    /// Creates a button that generates its label from a string.
    @_disfavoredOverload @preconcurrency
    public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {
        self.label = Text(title)
    }

    /// Creates a button with a specified role that generates its label from a localized string key.
    @preconcurrency
    public init(_ titleKey: LocalizedStringKey, role: ButtonRole?, action: @escaping @MainActor () -> Void) {
        self.label = Text(titleKey)
    }

    /// Creates a button with a specified role that generates its label from a string.
    @_disfavoredOverload @preconcurrency
    public init<S: StringProtocol>(_ title: S, role: ButtonRole?, action: @escaping @MainActor () -> Void) {
        self.label = Text(title)
    }
}

/// A view that shows the progress toward completion of a task.
nonisolated public struct ProgressView<Label: View, CurrentValueLabel: View>: View {
    /// The progress view's label, when it has one.
    let label: Label?

    /// A progress view is a primitive view.
    public typealias Body = Never
}

extension ProgressView where CurrentValueLabel == EmptyView {
    /// Creates a progress view for showing indeterminate progress, without a label.
    public init() where Label == EmptyView { self.label = nil }

    /// Creates a progress view for showing indeterminate progress that displays a custom label.
    public init(@ViewBuilder label: () -> Label) { self.label = label() }

    /// Creates a progress view for indeterminate progress that generates its label from a key.
    public init(_ titleKey: LocalizedStringKey) where Label == Text { self.label = Text(titleKey) }

    /// Creates a progress view for indeterminate progress that generates its label from a string.
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S) where Label == Text { self.label = Text(title) }

    /// Creates a progress view for showing determinate progress.
    public init<V: BinaryFloatingPoint>(value: V?, total: V = 1.0) where Label == EmptyView { self.label = nil }
}

#endif
