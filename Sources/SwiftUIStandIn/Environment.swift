// Environment values and the Environment property wrapper (stand-in: declarations only, for
// type-checking SwiftUI code on platforms without SwiftUI; never linked on Apple platforms; runtime
// behaviour is not modelled: nothing propagates, every read returns the key's default value).

#if !canImport(SwiftUI)

/// A key for accessing values in the environment.
public protocol EnvironmentKey {
    /// The associated type representing the type of the environment key's value.
    associatedtype Value

    /// The default value for the environment key.
    static var defaultValue: Self.Value { get }
}

/// A collection of environment values propagated through a view hierarchy.
public struct EnvironmentValues: CustomStringConvertible {
    /// Creates an environment values instance.
    public init() {}

    /// Accesses the environment value associated with a custom key (always its default value here).
    public subscript<K: EnvironmentKey>(key: K.Type) -> K.Value {
        get { K.defaultValue }
        set {}
    }

    /// A textual description of the environment values.
    public var description: String { "EnvironmentValues (SwiftUIStandIn: no values are stored)" }

    /// An action that dismisses the current presentation.
    public var dismiss: DismissAction { DismissAction() }

    /// A Boolean value that indicates whether the view associated with this environment is presented.
    public var isPresented: Bool { false }

    /// The color scheme of this environment.
    public var colorScheme: ColorScheme {
        get { .light }
        set {}
    }

    /// The current phase of the scene.
    public var scenePhase: ScenePhase {
        get { .active }
        set {}
    }
}

/// A property wrapper that reads a value from a view's environment.
@propertyWrapper
public struct Environment<Value>: DynamicProperty {
    /// The environment value to read.
    let keyPath: KeyPath<EnvironmentValues, Value>

    /// Creates an environment property to read the specified key path.
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) { self.keyPath = keyPath }

    /// The current value of the environment property (the default value, in the stand-in).
    public var wrappedValue: Value { EnvironmentValues()[keyPath: keyPath] }
}

/// An action that dismisses a presentation.
@MainActor @preconcurrency
public struct DismissAction {
    /// Only the environment creates dismiss actions.
    nonisolated init() {}

    /// Dismisses the view if it is currently presented (nothing is presented in the stand-in).
    public func callAsFunction() {}
}

/// An indication of a scene's operational state.
public enum ScenePhase: Comparable, Hashable, Sendable {
    /// The scene isn't currently visible in the UI.
    case background
    /// The scene is in the foreground but should pause its work.
    case inactive
    /// The scene is in the foreground and interactive.
    case active
}

extension View {
    /// Sets the environment value of the specified key path to the given value.
    nonisolated public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> some View {
        standInModified()
    }

    /// Supplies an observable object to a view's hierarchy.
    nonisolated public func environmentObject<T: ObservableObject>(_ object: T) -> some View {
        standInModified()
    }
}

#endif
