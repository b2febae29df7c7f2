import Foundation

/// The style of one screen, stack or presentation that a UI shows, with the context it was
/// resolved for (the context the SwiftUI layer passes to `FlowNavigationStyle`'s closures).
public struct FlowShownStyle: Hashable {
    /// Where the screen, stack or presentation sits.
    public let context: FlowStyleContext
    /// Its resolved attributes.
    public let attributes: FlowStyleAttributes

    /// Creates a shown style.
    public init(context: FlowStyleContext, attributes: FlowStyleAttributes) {
        self.context = context
        self.attributes = attributes
    }
}

/// Styles of the stacks a UI shows, which differ from `stacks` while a staged transition plays
/// (see `FlowStagingPlayer`).
///
/// Each function resolves exactly like `resolvedStyle(stackIndex:screenDepth:screenDefaults:)`
/// (defaults, then the Swift style rules, then the rules hook), but for a context taken from
/// `shown`: the indices and depths are the ones on screen. When `shown` equals `stacks` the
/// results are the same.
extension FlowRouter {
    /// The context of a shown stack (its root screen), or `nil` when there is no stack at
    /// `stackIndex`.
    public func shownStackContext(stackIndex: Int, in shown: [FlowStackState<Route>]) -> FlowStyleContext? {
        guard shown.indices.contains(stackIndex) else { return nil }
        let stack = shown[stackIndex]
        return FlowStyleContext(
            stackIndex: stackIndex, stackID: stack.id, presentationStyle: stack.style,
            rootRoute: AnyHashable(stack.root), screenRoute: AnyHashable(stack.root), screenDepth: 0
        )
    }

    /// The style of one shown screen: `node` is a screen of the stack's path, or `nil` for the
    /// stack's root screen.
    ///
    /// A node that is no longer in the shown path (SwiftUI still draws a screen while it animates
    /// out) keeps its route and sits just above the stack's top. `nil` when there is no stack at
    /// `stackIndex`.
    public func shownScreenStyle(
        _ node: FlowRouteNode<Route>?,
        stackIndex: Int,
        in shown: [FlowStackState<Route>],
        screenDefaults: FlowStyleAttributes = .flowStackScreenDefaults
    ) -> FlowShownStyle? {
        guard shown.indices.contains(stackIndex) else { return nil }
        let stack = shown[stackIndex]
        let depth = node.map { stack.storage.depth(of: $0.id) ?? stack.storage.count + 1 } ?? 0
        let context = FlowStyleContext(
            stackIndex: stackIndex, stackID: stack.id, presentationStyle: stack.style,
            rootRoute: AnyHashable(stack.root), screenRoute: AnyHashable(node?.route ?? stack.root),
            screenDepth: depth
        )
        return FlowShownStyle(context: context, attributes: resolve(.screen, context: context, base: screenDefaults))
    }

    /// The style of one shown stack (the `stack` hook), or `nil` when there is no stack at
    /// `stackIndex`.
    public func shownStackStyle(stackIndex: Int, in shown: [FlowStackState<Route>]) -> FlowShownStyle? {
        guard let context = shownStackContext(stackIndex: stackIndex, in: shown) else { return nil }
        return FlowShownStyle(context: context, attributes: resolve(.stack, context: context, base: FlowStyleAttributes()))
    }

    /// The style of one shown presentation (the `modal` hook), or `nil` for the root stack and
    /// when there is no stack at `stackIndex`.
    ///
    /// A stack presented with `allowsInteractiveDismiss == false` always gets
    /// `interactiveDismissDisabled = true`: rules may forbid a swipe-down, never allow one the
    /// presenting code refused.
    public func shownModalStyle(stackIndex: Int, in shown: [FlowStackState<Route>]) -> FlowShownStyle? {
        guard stackIndex > 0, let context = shownStackContext(stackIndex: stackIndex, in: shown) else { return nil }
        var attributes = resolve(.modal, context: context, base: FlowStyleAttributes())
        if !shown[stackIndex].options.allowsInteractiveDismiss {
            attributes.interactiveDismissDisabled = true
        }
        return FlowShownStyle(context: context, attributes: attributes)
    }
}

extension FlowPath {
    /// The depth of the screen with this identity (1 for the bottom of the path), or `nil`.
    func depth(of id: UUID) -> Int? {
        var link = top
        while let current = link {
            if current.id == id { return current.count }
            link = current.parent
        }
        return nil
    }
}
