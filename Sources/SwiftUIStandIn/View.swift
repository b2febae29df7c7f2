// View: the protocol every SwiftUI view conforms to (stand-in: declarations only, for type-checking
// SwiftUI code on platforms without SwiftUI; never linked on Apple platforms; runtime behaviour is
// not modelled).

#if !canImport(SwiftUI)

/// A type that represents part of an app's user interface and provides view modifiers.
@MainActor @preconcurrency
public protocol View {
    /// The type of view representing the body of this view.
    associatedtype Body: View

    /// The content and behaviour of the view.
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

extension View where Body == Never {
    /// Primitive views have no body: their `Body` is `Never`, as in SwiftUI.
    public var body: Never { primitiveViewHasNoBody(Self.self) }
}

extension Never: View {
    /// `Never` is the body type of primitive views (and scenes).
    public typealias Body = Never

    /// `Never` has no body; declared here so that `View` and `Scene` share one witness.
    public var body: Never { primitiveViewHasNoBody(Self.self) }
}

extension Optional: View where Wrapped: View {
    /// An optional view is a primitive view that shows its wrapped view when there is one.
    public typealias Body = Never
}

#endif
