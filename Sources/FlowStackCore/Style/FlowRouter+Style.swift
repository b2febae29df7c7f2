import Foundation

/// Style as data: every screen, stack and modal gets resolved attributes from defaults, then the
/// Swift style rules in order, then the rules hook (Lua), later keys winning.
///
/// There is one resolver, `shownStyle(_:stackIndex:screen:in:screenDefaults:)`: the SwiftUI
/// layer calls it for what it draws, and `resolvedStyle(stackIndex:screenDepth:screenDefaults:)`
/// (a flow's `router.style`, `flowstack check`) calls it for the router's own stacks, so a flow
/// test sees exactly what the app shows.
extension FlowRouter {
    /// Adds a Swift style rule to one hook; rules run in the order they were added.
    public func addStyleRule(_ hook: FlowStyleHook, _ rule: @escaping StyleRule) {
        styleRules[hook, default: []].append(rule)
    }

    /// Removes every Swift style rule.
    public func removeAllStyleRules() {
        styleRules.removeAll()
    }

    /// The style one hook gives a stack of `shown` (the stacks a UI shows, which differ from
    /// `stacks` while a staged transition plays, see `FlowStagingPlayer`): the one style resolver.
    ///
    /// - `.screen`: the screen `node` of the stack's path, or its root screen when `node` is
    ///   `nil`, starting from `screenDefaults` (the host's defaults; FlowStack's: navigation bar
    ///   hidden, text leading). A node no longer in the path (SwiftUI still draws a screen while
    ///   it animates out) keeps its route and sits just above the stack's top.
    /// - `.stack`: the stack (its context is its root screen's).
    /// - `.modal`: the stack's presentation; `nil` for the root stack. A stack presented with
    ///   `allowsInteractiveDismiss == false` always gets `interactiveDismissDisabled = true`:
    ///   rules may forbid a swipe-down, never allow one the presenting code refused.
    ///
    /// Attributes are the defaults (`screenDefaults` for a screen, none otherwise), then the Swift
    /// style rules in order, then the rules hook, later keys winning. `nil` when there is no stack at `stackIndex`.
    public func shownStyle(
        _ hook: FlowStyleHook,
        stackIndex: Int,
        screen node: FlowRouteNode<Route>? = nil,
        in shown: [FlowStackState<Route>],
        screenDefaults: FlowStyleAttributes = .flowStackScreenDefaults
    ) -> FlowShownStyle? {
        guard hook != .modal || stackIndex > 0,
              let context = styleContext(stackIndex: stackIndex, screen: hook == .screen ? node : nil, in: shown)
        else { return nil }
        var attributes = hook == .screen ? screenDefaults : FlowStyleAttributes()
        for rule in styleRules[hook] ?? [] {
            attributes = attributes.merging(rule(context))
        }
        if let rulesHook {
            attributes = attributes.merging(rulesHook.style(for: context, hook: hook))
        }
        if hook == .modal, !shown[stackIndex].options.allowsInteractiveDismiss {
            attributes.interactiveDismissDisabled = true
        }
        return FlowShownStyle(context: context, attributes: attributes)
    }

    /// The style context of one screen of `stacks` (`screenDepth` 0 is the stack's root screen),
    /// or `nil` when there is no such screen.
    public func styleContext(stackIndex: Int, screenDepth: Int) -> FlowStyleContext? {
        guard hasScreen(stackIndex: stackIndex, screenDepth: screenDepth) else { return nil }
        return styleContext(stackIndex: stackIndex, screen: node(stackIndex: stackIndex, screenDepth: screenDepth), in: stacks)
    }

    /// What the app shows for one screen of `stacks`: the screen's, its stack's and its
    /// presentation's attributes from `shownStyle(_:stackIndex:screen:in:screenDefaults:)`, or
    /// `nil` when there is no such screen. A flow's `router.style` returns this.
    public func resolvedStyle(
        stackIndex: Int,
        screenDepth: Int,
        screenDefaults: FlowStyleAttributes = .flowStackScreenDefaults
    ) -> FlowResolvedStyle? {
        guard hasScreen(stackIndex: stackIndex, screenDepth: screenDepth),
              let screen = shownStyle(
                .screen, stackIndex: stackIndex, screen: node(stackIndex: stackIndex, screenDepth: screenDepth),
                in: stacks, screenDefaults: screenDefaults
              ),
              let stack = shownStyle(.stack, stackIndex: stackIndex, in: stacks) else { return nil }
        let modal = shownStyle(.modal, stackIndex: stackIndex, in: stacks)
        return FlowResolvedStyle(screen: screen.attributes, stack: stack.attributes, modal: modal?.attributes)
    }

    /// The context of the screen `node` of a stack of `shown` (its root screen when `nil`; a node
    /// no longer in the path sits just above the top), or `nil` when there is no such stack.
    private func styleContext(stackIndex: Int, screen node: FlowRouteNode<Route>?, in shown: [FlowStackState<Route>]) -> FlowStyleContext? {
        guard shown.indices.contains(stackIndex) else { return nil }
        let stack = shown[stackIndex]
        let depth = node.map { stack.storage.depth(of: $0.id) ?? stack.storage.count + 1 } ?? 0
        var context = FlowStyleContext(
            stackIndex: stackIndex, stackID: stack.id, presentationStyle: stack.style,
            rootRoute: AnyHashable(stack.root), screenRoute: AnyHashable(node?.route ?? stack.root),
            screenDepth: depth
        )
        context.tab = storage.state.selectedTab
        return context
    }

    /// Whether the router's stack at `stackIndex` has a screen at `screenDepth` (0 is its root).
    private func hasScreen(stackIndex: Int, screenDepth: Int) -> Bool {
        stacks.indices.contains(stackIndex) && screenDepth >= 0 && screenDepth <= stacks[stackIndex].storage.count
    }

    /// The node of the screen at `screenDepth` of the router's stack at `stackIndex`; `nil` for
    /// its root screen (depth 0) and when there is no such screen.
    private func node(stackIndex: Int, screenDepth: Int) -> FlowRouteNode<Route>? {
        guard screenDepth > 0, hasScreen(stackIndex: stackIndex, screenDepth: screenDepth) else { return nil }
        return stacks[stackIndex].storage.node(at: screenDepth - 1)
    }
}
