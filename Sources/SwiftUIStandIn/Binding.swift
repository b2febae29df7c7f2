// Binding and DynamicProperty (stand-in: declarations only, for type-checking SwiftUI code on
// platforms without SwiftUI; never linked on Apple platforms; runtime behaviour is not modelled).

#if !canImport(SwiftUI)

/// An interface for a stored variable that updates an external property of a view.
public protocol DynamicProperty {
    /// Updates the underlying value of the stored value.
    mutating func update()
}

extension DynamicProperty {
    /// Updates the underlying value of the stored value; the stand-in has nothing to update.
    public mutating func update() {}
}

/// A property wrapper type that can read and write a value owned by a source of truth.
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    /// Reads the value (stand-in plumbing for constants, `State` and derived bindings).
    let read: () -> Value

    /// Writes the value (stand-in plumbing for constants, `State` and derived bindings).
    let write: (Value) -> Void

    /// Creates a binding from stand-in accessors.
    init(read: @escaping () -> Value, write: @escaping (Value) -> Void) {
        self.read = read
        self.write = write
    }

    /// Creates a binding with closures that read and write the binding value.
    @preconcurrency
    public init(
        get: @escaping @isolated(any) @Sendable () -> Value,
        set: @escaping @isolated(any) @Sendable (Value) -> Void
    ) {
        self.init(
            read: { standInRuntimeNotModelled("reading a Binding made with init(get:set:)") },
            write: { _ in }
        )
    }

    /// Creates a binding with a closure that reads and one that writes with a transaction.
    @preconcurrency
    public init(
        get: @escaping @isolated(any) @Sendable () -> Value,
        set: @escaping @isolated(any) @Sendable (Value, Transaction) -> Void
    ) {
        self.init(
            read: { standInRuntimeNotModelled("reading a Binding made with init(get:set:)") },
            write: { _ in }
        )
    }

    /// Creates a binding from the value of another binding.
    public init(projectedValue: Binding<Value>) {
        self.init(read: projectedValue.read, write: projectedValue.write)
    }

    /// Creates a binding with an immutable value.
    public static func constant(_ value: Value) -> Binding<Value> {
        Binding(read: { value }, write: { _ in })
    }

    /// The underlying value referenced by the binding variable.
    public var wrappedValue: Value {
        get { read() }
        nonmutating set { write(newValue) }
    }

    /// A projection of the binding value that returns a binding.
    public var projectedValue: Binding<Value> { self }

    /// Returns a binding to the resulting value of a given key path.
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        let read = self.read
        let write = self.write
        return Binding<Subject>(
            read: { read()[keyPath: keyPath] },
            write: { newValue in
                var value = read()
                value[keyPath: keyPath] = newValue
                write(value)
            }
        )
    }

    /// Specifies an animation to perform when the binding value changes.
    public func animation(_ animation: Animation? = .default) -> Binding<Value> { self }

    /// Specifies a transaction for the binding.
    public func transaction(_ transaction: Transaction) -> Binding<Value> { self }
}

extension Binding {
    /// Creates a binding by projecting the base value to an optional value.
    public init<V>(_ base: Binding<V>) where Value == V? {
        self.init(
            read: { base.read() },
            write: { newValue in
                if let newValue { base.write(newValue) }
            }
        )
    }
}

/// A binding is a dynamic property of the view that declares it.
extension Binding: DynamicProperty {}

/// A binding is sendable when its value is: the stand-in's accessors never run concurrently.
extension Binding: @unchecked Sendable where Value: Sendable {}

extension Binding: Identifiable where Value: Identifiable {
    /// The stable identity of the value the binding refers to.
    public var id: Value.ID { wrappedValue.id }
}

#endif
