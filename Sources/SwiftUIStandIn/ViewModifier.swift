// ViewModifier, ModifiedContent and `modifier(_:)` (stand-in: declarations only, for type-checking
// SwiftUI code on platforms without SwiftUI; never linked on Apple platforms; runtime behaviour is
// not modelled).

#if !canImport(SwiftUI)

/// A modifier that you apply to a view or another view modifier, producing a different version.
@MainActor @preconcurrency
public protocol ViewModifier {
    /// The type of view representing the body.
    associatedtype Body: View

    /// Gets the current body of the caller; `content` is a proxy for the modified view.
    @ViewBuilder @MainActor @preconcurrency func body(content: Self.Content) -> Self.Body

    /// The content view type passed to `body(content:)`.
    typealias Content = _ViewModifier_Content<Self>
}

extension ViewModifier where Body == Never {
    /// Primitive modifiers have no body, as in SwiftUI.
    public func body(content: Self.Content) -> Never { primitiveViewHasNoBody(Self.self) }
}

/// The proxy view that a view modifier's `body(content:)` receives.
nonisolated public struct _ViewModifier_Content<Modifier: ViewModifier>: View {
    /// The proxy is a primitive view.
    public typealias Body = Never

    /// Only the stand-in creates proxies.
    init() {}
}

/// A value with a modifier applied to it.
nonisolated public struct ModifiedContent<Content, Modifier> {
    /// The content that the modifier transforms into a new view or new view modifier.
    public var content: Content

    /// The view modifier.
    public var modifier: Modifier

    /// Creates modified content from content and a modifier.
    public init(content: Content, modifier: Modifier) {
        self.content = content
        self.modifier = modifier
    }
}

extension ModifiedContent: View where Content: View, Modifier: ViewModifier {
    /// Modified content is a primitive view.
    public typealias Body = Never
}

/// A modifier applied to a modifier is itself a (primitive) modifier.
extension ModifiedContent: ViewModifier where Content: ViewModifier, Modifier: ViewModifier {}

extension View {
    /// Applies a modifier to a view and returns a new view.
    nonisolated public func modifier<T>(_ modifier: T) -> ModifiedContent<Self, T> {
        ModifiedContent(content: self, modifier: modifier)
    }
}

extension ViewModifier {
    /// Returns a new modifier that is the result of concatenating `self` with `modifier`.
    nonisolated public func concat<T>(_ modifier: T) -> ModifiedContent<Self, T> {
        ModifiedContent(content: self, modifier: modifier)
    }
}

/// The modifier behind every stand-in view modifier: it records nothing, since nothing renders.
struct StandInModifier: ViewModifier {
    /// A primitive modifier.
    typealias Body = Never

    /// Creates the modifier, from any isolation.
    nonisolated init() {}
}

extension View {
    /// The value every stand-in modifier returns: this view wrapped in a modifier that does nothing.
    nonisolated func standInModified() -> ModifiedContent<Self, StandInModifier> {
        ModifiedContent(content: self, modifier: StandInModifier())
    }
}

#endif
