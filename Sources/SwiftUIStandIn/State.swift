// State (stand-in: declarations only, for type-checking SwiftUI code on platforms without SwiftUI;
// never linked on Apple platforms; runtime behaviour is not modelled).

#if !canImport(SwiftUI)

/// A property wrapper type that can read and write a value managed by SwiftUI.
@propertyWrapper
public struct State<Value>: DynamicProperty {
    /// Holds the value so that `nonmutating set` can write it; SwiftUI's storage is not modelled.
    final class Box {
        /// The stored value.
        var value: Value

        /// Creates a box holding a value.
        init(_ value: Value) { self.value = value }
    }

    /// The storage for the value.
    let box: Box

    /// Creates a state property that stores an initial value.
    public init(wrappedValue value: Value) { self.box = Box(value) }

    /// Creates a state property that stores an initial value.
    public init(initialValue value: Value) { self.box = Box(value) }

    /// The underlying value referenced by the state variable.
    public var wrappedValue: Value {
        get { box.value }
        nonmutating set { box.value = newValue }
    }

    /// A binding to the state value.
    public var projectedValue: Binding<Value> {
        let box = self.box
        return Binding(read: { box.value }, write: { box.value = $0 })
    }
}

extension State where Value: ExpressibleByNilLiteral {
    /// Creates a state property without an initial value.
    public init() { self.init(wrappedValue: nil) }
}

/// State is sendable when its value is: the stand-in's box is never accessed concurrently.
extension State: @unchecked Sendable where Value: Sendable {}

#endif
