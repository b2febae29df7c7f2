// StateObject, ObservedObject and EnvironmentObject (stand-in: declarations only, for
// type-checking SwiftUI code on platforms without SwiftUI; never linked on Apple platforms; runtime
// behaviour is not modelled).

#if !canImport(SwiftUI)

/// A property wrapper type that subscribes to an observable object and invalidates a view on change.
@MainActor @preconcurrency @propertyWrapper
public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty {
    /// A wrapper of the observed object that creates bindings to its properties.
    @MainActor @preconcurrency @dynamicMemberLookup
    public struct Wrapper {
        /// The wrapped object.
        let root: ObjectType

        /// Returns a binding to the value of a given key path.
        public subscript<Subject>(
            dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>
        ) -> Binding<Subject> {
            let root = self.root
            return Binding(read: { root[keyPath: keyPath] }, write: { root[keyPath: keyPath] = $0 })
        }
    }

    /// Creates an observed object with an initial value.
    public init(initialValue: ObjectType) { self.wrappedValue = initialValue }

    /// Creates an observed object with an initial wrapped value.
    public init(wrappedValue: ObjectType) { self.wrappedValue = wrappedValue }

    /// The underlying value that the observed object references.
    public var wrappedValue: ObjectType

    /// A projection of the observed object that creates bindings to its properties.
    public var projectedValue: ObservedObject<ObjectType>.Wrapper { Wrapper(root: wrappedValue) }
}

/// A property wrapper type that instantiates an observable object.
@MainActor @preconcurrency @propertyWrapper
public struct StateObject<ObjectType: ObservableObject>: DynamicProperty {
    /// Makes the object; SwiftUI's once-per-view-identity storage is not modelled.
    ///
    /// `nonisolated(unsafe)` lets the nonisolated initializer store it, as SwiftUI's does; the
    /// stand-in only reads it on the main actor.
    nonisolated(unsafe) let thunk: () -> ObjectType

    /// Creates a new state object with an initial wrapped value.
    nonisolated public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) {
        self.thunk = thunk
    }

    /// The underlying value referenced by the state object.
    public var wrappedValue: ObjectType { thunk() }

    /// A projection of the state object that creates bindings to its properties.
    public var projectedValue: ObservedObject<ObjectType>.Wrapper {
        ObservedObject<ObjectType>.Wrapper(root: wrappedValue)
    }
}

/// A property wrapper type for an observable object that a parent or ancestor view supplies.
@MainActor @preconcurrency @propertyWrapper
public struct EnvironmentObject<ObjectType: ObservableObject>: DynamicProperty {
    /// A wrapper of the environment object that creates bindings to its properties.
    @MainActor @preconcurrency @dynamicMemberLookup
    public struct Wrapper {
        /// Returns a binding to the value of a given key path.
        public subscript<Subject>(
            dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>
        ) -> Binding<Subject> {
            Binding(
                read: { standInRuntimeNotModelled("reading an @EnvironmentObject binding") },
                write: { _ in }
            )
        }
    }

    /// Creates an environment object.
    public init() {}

    /// The underlying value referenced by the environment object.
    ///
    /// SwiftUI supplies the object from an ancestor's `environmentObject(_:)`; the stand-in has no
    /// environment, so there is never an object to return.
    public var wrappedValue: ObjectType {
        standInRuntimeNotModelled("reading @EnvironmentObject \(ObjectType.self)")
    }

    /// A projection of the environment object that creates bindings to its properties.
    public var projectedValue: EnvironmentObject<ObjectType>.Wrapper { Wrapper() }
}

#endif
