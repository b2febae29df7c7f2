#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)

/// How a `FlowStackView` styles its screens, stacks and presentations (FlowStack's API).
///
/// `hidesNavigationBar` and `multilineTextAlignment` are the screen defaults; style rules (Swift
/// `addStyleRule` and the rules hook, e.g. Lua) are merged over them by the core. The
/// `screen`, `stack` and `modal` closures run last, on top of the resolved style:
///
/// ```swift
/// let style = FlowNavigationStyle.default
///     .navigationBarHidden(false)
///     .screenStyle { view, context in view.background(context.isRootScreen ? .white : .gray) }
///     .modalStyle { view in view.presentationDragIndicator(.visible) }
/// ```
///
/// The closures are not isolated, as in FlowStack: they can be stored as
/// `(AnyView, Context) -> AnyView` and called from any code; `FlowStackView` calls them while
/// SwiftUI builds its body, on the main actor.
public struct FlowNavigationStyle {
    /// Where a screen, stack or presentation sits: the core's `FlowStyleContext`.
    public typealias Context = FlowStyleContext

    /// Whether screens hide the navigation bar unless a style rule shows it (FlowStack's default:
    /// `true`).
    public var hidesNavigationBar: Bool
    /// The screens' text alignment unless a style rule sets one (`nil`: none is applied).
    public var multilineTextAlignment: TextAlignment?
    /// Wraps each navigation stack (the root one and every presented one).
    public var stack: (AnyView, Context) -> AnyView
    /// Wraps each screen (root screens and pushed ones).
    public var screen: (AnyView, Context) -> AnyView
    /// Wraps each presented stack, inside its sheet or full-screen cover.
    public var modal: (AnyView, Context) -> AnyView

    /// Creates a style; the defaults match FlowStack's.
    public init(
        hidesNavigationBar: Bool = true,
        multilineTextAlignment: TextAlignment? = .leading,
        stack: @escaping (AnyView, Context) -> AnyView = { view, _ in view },
        screen: @escaping (AnyView, Context) -> AnyView = { view, _ in view },
        modal: @escaping (AnyView, Context) -> AnyView = { view, _ in view }
    ) {
        self.hidesNavigationBar = hidesNavigationBar
        self.multilineTextAlignment = multilineTextAlignment
        self.stack = stack
        self.screen = screen
        self.modal = modal
    }

    /// FlowStack's default style: navigation bar hidden, text leading, no closures.
    public static var `default`: FlowNavigationStyle { FlowNavigationStyle() }

    /// The screen defaults handed to the core's style resolution.
    ///
    /// As in FlowStack, `hidesNavigationBar == false` expresses no preference (the bar stays as
    /// SwiftUI and the rules make it), rather than forcing the bar visible.
    public var screenDefaults: FlowStyleAttributes {
        FlowStyleAttributes(
            navigationBarHidden: hidesNavigationBar ? true : nil,
            multilineTextAlignment: multilineTextAlignment.map(FlowTextAlignment.init)
        )
    }

    /// This style with the navigation bar hidden or not by default.
    public func navigationBarHidden(_ hidden: Bool) -> FlowNavigationStyle {
        var copy = self
        copy.hidesNavigationBar = hidden
        return copy
    }

    /// This style with another default text alignment (`nil`: none is applied).
    public func multilineTextAlignment(_ alignment: TextAlignment?) -> FlowNavigationStyle {
        var copy = self
        copy.multilineTextAlignment = alignment
        return copy
    }

    /// This style with each navigation stack wrapped by `transform`.
    public func stackStyle(
        @ViewBuilder _ transform: @escaping (AnyView) -> some View
    ) -> FlowNavigationStyle {
        var copy = self
        copy.stack = { view, _ in AnyView(transform(view)) }
        return copy
    }

    /// This style with each navigation stack wrapped by `transform`, which also gets the context.
    public func stackStyle(
        @ViewBuilder _ transform: @escaping (AnyView, Context) -> some View
    ) -> FlowNavigationStyle {
        var copy = self
        copy.stack = { view, context in AnyView(transform(view, context)) }
        return copy
    }

    /// This style with each screen wrapped by `transform`.
    public func screenStyle(
        @ViewBuilder _ transform: @escaping (AnyView) -> some View
    ) -> FlowNavigationStyle {
        var copy = self
        copy.screen = { view, _ in AnyView(transform(view)) }
        return copy
    }

    /// This style with each screen wrapped by `transform`, which also gets the context.
    public func screenStyle(
        @ViewBuilder _ transform: @escaping (AnyView, Context) -> some View
    ) -> FlowNavigationStyle {
        var copy = self
        copy.screen = { view, context in AnyView(transform(view, context)) }
        return copy
    }

    /// This style with each presented stack wrapped by `transform`.
    public func modalStyle(
        @ViewBuilder _ transform: @escaping (AnyView) -> some View
    ) -> FlowNavigationStyle {
        var copy = self
        copy.modal = { view, _ in AnyView(transform(view)) }
        return copy
    }

    /// This style with each presented stack wrapped by `transform`, which also gets the context.
    public func modalStyle(
        @ViewBuilder _ transform: @escaping (AnyView, Context) -> some View
    ) -> FlowNavigationStyle {
        var copy = self
        copy.modal = { view, context in AnyView(transform(view, context)) }
        return copy
    }
}

#endif
