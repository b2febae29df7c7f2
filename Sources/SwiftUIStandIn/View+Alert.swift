// Alerts (stand-in: declarations only, for type-checking SwiftUI code on platforms without
// SwiftUI; never linked on Apple platforms; runtime behaviour is not modelled: nothing is shown).

#if !canImport(SwiftUI)

extension View {
    /// Presents an alert when a given condition is true, using a localized string key for the title.
    nonisolated public func alert<A: View>(
        _ titleKey: LocalizedStringKey,
        isPresented: Binding<Bool>,
        @ViewBuilder actions: () -> A
    ) -> some View {
        standInModified()
    }

    /// Presents an alert when a given condition is true, using a string for the title.
    @_disfavoredOverload
    nonisolated public func alert<S: StringProtocol, A: View>(
        _ title: S,
        isPresented: Binding<Bool>,
        @ViewBuilder actions: () -> A
    ) -> some View {
        standInModified()
    }

    /// Presents an alert when a given condition is true, using a text view for the title.
    nonisolated public func alert<A: View>(
        _ title: Text,
        isPresented: Binding<Bool>,
        @ViewBuilder actions: () -> A
    ) -> some View {
        standInModified()
    }

    /// Presents an alert with a message when a given condition is true, titled by a localized key.
    nonisolated public func alert<A: View, M: View>(
        _ titleKey: LocalizedStringKey,
        isPresented: Binding<Bool>,
        @ViewBuilder actions: () -> A,
        @ViewBuilder message: () -> M
    ) -> some View {
        standInModified()
    }

    /// Presents an alert with a message when a given condition is true, titled by a string.
    @_disfavoredOverload
    nonisolated public func alert<S: StringProtocol, A: View, M: View>(
        _ title: S,
        isPresented: Binding<Bool>,
        @ViewBuilder actions: () -> A,
        @ViewBuilder message: () -> M
    ) -> some View {
        standInModified()
    }

    /// Presents an alert with a message when a given condition is true, titled by a text view.
    nonisolated public func alert<A: View, M: View>(
        _ title: Text,
        isPresented: Binding<Bool>,
        @ViewBuilder actions: () -> A,
        @ViewBuilder message: () -> M
    ) -> some View {
        standInModified()
    }

    /// Presents an alert using data to produce its actions, titled by a localized key.
    nonisolated public func alert<A: View, T>(
        _ titleKey: LocalizedStringKey,
        isPresented: Binding<Bool>,
        presenting data: T?,
        @ViewBuilder actions: (T) -> A
    ) -> some View {
        standInModified()
    }

    /// Presents an alert using data to produce its actions, titled by a string.
    @_disfavoredOverload
    nonisolated public func alert<S: StringProtocol, A: View, T>(
        _ title: S,
        isPresented: Binding<Bool>,
        presenting data: T?,
        @ViewBuilder actions: (T) -> A
    ) -> some View {
        standInModified()
    }

    /// Presents an alert using data to produce its actions, titled by a text view.
    nonisolated public func alert<A: View, T>(
        _ title: Text,
        isPresented: Binding<Bool>,
        presenting data: T?,
        @ViewBuilder actions: (T) -> A
    ) -> some View {
        standInModified()
    }

    /// Presents an alert using data to produce its actions and message, titled by a localized key.
    nonisolated public func alert<A: View, M: View, T>(
        _ titleKey: LocalizedStringKey,
        isPresented: Binding<Bool>,
        presenting data: T?,
        @ViewBuilder actions: (T) -> A,
        @ViewBuilder message: (T) -> M
    ) -> some View {
        standInModified()
    }

    /// Presents an alert using data to produce its actions and message, titled by a string.
    @_disfavoredOverload
    nonisolated public func alert<S: StringProtocol, A: View, M: View, T>(
        _ title: S,
        isPresented: Binding<Bool>,
        presenting data: T?,
        @ViewBuilder actions: (T) -> A,
        @ViewBuilder message: (T) -> M
    ) -> some View {
        standInModified()
    }

    /// Presents an alert using data to produce its actions and message, titled by a text view.
    nonisolated public func alert<A: View, M: View, T>(
        _ title: Text,
        isPresented: Binding<Bool>,
        presenting data: T?,
        @ViewBuilder actions: (T) -> A,
        @ViewBuilder message: (T) -> M
    ) -> some View {
        standInModified()
    }
}

#endif
