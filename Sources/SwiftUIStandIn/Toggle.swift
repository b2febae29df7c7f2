// Toggle (stand-in: declarations only, for type-checking SwiftUI code on platforms without
// SwiftUI; never linked on Apple platforms; runtime behaviour is not modelled).

#if !canImport(SwiftUI)

/// A control that toggles between on and off states.
nonisolated public struct Toggle<Label: View>: View {
    /// The toggle's label.
    let label: Label

    /// Creates a toggle that displays a custom label.
    public init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label) { self.label = label() }

    /// A toggle is a primitive view.
    public typealias Body = Never
}

extension Toggle where Label == Text {
    /// Creates a toggle that generates its label from a localized string key.
    public init(_ titleKey: LocalizedStringKey, isOn: Binding<Bool>) { self.label = Text(titleKey) }

    /// Creates a toggle that generates its label from a string.
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) { self.label = Text(title) }
}

#endif
