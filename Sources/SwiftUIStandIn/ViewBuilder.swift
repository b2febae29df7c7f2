// ViewBuilder and the views it produces (stand-in: declarations only, for type-checking SwiftUI
// code on platforms without SwiftUI; never linked on Apple platforms; runtime behaviour is not
// modelled).

#if !canImport(SwiftUI)

/// A custom parameter attribute that constructs views from closures.
@resultBuilder
public struct ViewBuilder {
    /// Builds an empty view from a block containing no statements.
    public static func buildBlock() -> EmptyView { EmptyView() }

    /// Passes a single view written as a child view through unmodified.
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }

    /// Combines several child views into one tuple view.
    public static func buildBlock<each Content: View>(
        _ content: repeat each Content
    ) -> TupleView<(repeat each Content)> {
        TupleView((repeat each content))
    }

    /// Passes a view expression through unmodified.
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }

    /// Produces an optional view for an `if` statement without an `else`.
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }

    /// Produces content for the first branch of an `if`/`else` or `switch`.
    public static func buildEither<TrueContent: View, FalseContent: View>(
        first: TrueContent
    ) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .trueContent(first))
    }

    /// Produces content for the second branch of an `if`/`else` or `switch`.
    public static func buildEither<TrueContent: View, FalseContent: View>(
        second: FalseContent
    ) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent(storage: .falseContent(second))
    }

    /// Erases the type of content inside an `if #available` block.
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView {
        AnyView(content)
    }
}

/// A view created from a Swift tuple of view values.
nonisolated public struct TupleView<T>: View {
    /// The tuple of child views.
    public var value: T

    /// Creates a tuple view from a tuple of views.
    public init(_ value: T) { self.value = value }

    /// A tuple view is a primitive view.
    public typealias Body = Never
}

/// View content that shows one of two possible children, built by `if`/`else` in a view builder.
nonisolated public struct _ConditionalContent<TrueContent, FalseContent> {
    /// Which branch was taken.
    enum Storage {
        case trueContent(TrueContent)
        case falseContent(FalseContent)
    }

    /// The branch this content holds.
    let storage: Storage
}

extension _ConditionalContent: View where TrueContent: View, FalseContent: View {
    /// Conditional content is a primitive view.
    public typealias Body = Never
}

#endif
