// Lifecycle and event modifiers (stand-in: declarations only, for type-checking SwiftUI code on
// platforms without SwiftUI; never linked on Apple platforms; runtime behaviour is not modelled:
// no action or task is ever run).

#if !canImport(SwiftUI)

extension View {
    /// Adds an action to perform before this view appears.
    nonisolated public func onAppear(perform action: (() -> Void)? = nil) -> some View {
        standInModified()
    }

    /// Adds an action to perform after this view disappears.
    nonisolated public func onDisappear(perform action: (() -> Void)? = nil) -> some View {
        standInModified()
    }

    /// Adds an action to perform when the given value changes, receiving the new value.
    ///
    /// Deprecated on Apple platforms from iOS 17, macOS 14, tvOS 17 and watchOS 10, and on visionOS
    /// from 1.0, its first release: a visionOS build warns wherever it is used, even in the `else`
    /// of an `if #available` (no warning on Linux).
    @available(
        iOS, introduced: 14.0, deprecated: 17.0,
        message: "Use `onChange` with a two or zero parameter action closure instead."
    )
    @available(
        macOS, introduced: 11.0, deprecated: 14.0,
        message: "Use `onChange` with a two or zero parameter action closure instead."
    )
    @available(
        tvOS, introduced: 14.0, deprecated: 17.0,
        message: "Use `onChange` with a two or zero parameter action closure instead."
    )
    @available(
        watchOS, introduced: 7.0, deprecated: 10.0,
        message: "Use `onChange` with a two or zero parameter action closure instead."
    )
    @available(
        visionOS, introduced: 1.0, deprecated: 1.0,
        message: "Use `onChange` with a two or zero parameter action closure instead."
    )
    nonisolated public func onChange<V: Equatable>(
        of value: V,
        perform action: @escaping (V) -> Void
    ) -> some View {
        standInModified()
    }

    /// Adds an action to perform when the given value changes, receiving the old and new values.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    nonisolated public func onChange<V: Equatable>(
        of value: V,
        initial: Bool = false,
        _ action: @escaping (_ oldValue: V, _ newValue: V) -> Void
    ) -> some View {
        standInModified()
    }

    /// Adds an action to perform when the given value changes.
    @available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *)
    nonisolated public func onChange<V: Equatable>(
        of value: V,
        initial: Bool = false,
        _ action: @escaping () -> Void
    ) -> some View {
        standInModified()
    }

    /// Adds an asynchronous task to perform before this view appears.
    nonisolated public func task(
        priority: TaskPriority = .userInitiated,
        @_inheritActorContext _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View {
        standInModified()
    }

    /// Adds a task to perform before this view appears or when a specified value changes.
    nonisolated public func task<T: Equatable>(
        id value: T,
        priority: TaskPriority = .userInitiated,
        @_inheritActorContext _ action: sending @escaping @isolated(any) () async -> Void
    ) -> some View {
        standInModified()
    }

    /// Adds an action to perform when this view recognizes a tap gesture.
    nonisolated public func onTapGesture(count: Int = 1, perform action: @escaping () -> Void) -> some View {
        standInModified()
    }

    /// Registers a handler to invoke in response to a URL that the app receives.
    nonisolated public func onOpenURL(perform action: @escaping (URL) -> ()) -> some View {
        standInModified()
    }
}

#endif
