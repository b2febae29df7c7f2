import Foundation

/// Style as data: every screen, stack and modal gets resolved attributes from defaults, then the
/// Swift style rules in order, then the rules hook (Lua), later keys winning.
extension FlowRouter {
    /// Adds a Swift style rule to one hook; rules run in the order they were added.
    public func addStyleRule(_ hook: FlowStyleHook, _ rule: @escaping StyleRule) {
        styleRules[hook, default: []].append(rule)
    }

    /// Removes every Swift style rule.
    public func removeAllStyleRules() {
        styleRules.removeAll()
    }

    /// The style context of one screen (`screenDepth` 0 is the stack's root screen).
    public func styleContext(stackIndex: Int, screenDepth: Int) -> FlowStyleContext? {
        guard stacks.indices.contains(stackIndex) else { return nil }
        let stack = stacks[stackIndex]
        guard screenDepth >= 0, screenDepth <= stack.storage.count else { return nil }
        let screen = screenDepth == 0 ? stack.root : stack.storage.node(at: screenDepth - 1)!.route
        return FlowStyleContext(
            stackIndex: stackIndex, stackID: stack.id, presentationStyle: stack.style,
            rootRoute: AnyHashable(stack.root), screenRoute: AnyHashable(screen), screenDepth: screenDepth
        )
    }

    /// The resolved style of one screen, its stack and its presentation, or `nil` when there is
    /// no such screen. `screenDefaults` are the host's defaults (FlowStack's: navigation bar
    /// hidden, text leading).
    public func resolvedStyle(
        stackIndex: Int,
        screenDepth: Int,
        screenDefaults: FlowStyleAttributes = .flowStackScreenDefaults
    ) -> FlowResolvedStyle? {
        guard let screenContext = styleContext(stackIndex: stackIndex, screenDepth: screenDepth),
              let stackContext = styleContext(stackIndex: stackIndex, screenDepth: 0) else { return nil }
        let screen = resolve(.screen, context: screenContext, base: screenDefaults)
        let stack = resolve(.stack, context: stackContext, base: FlowStyleAttributes())
        let modal = stackIndex == 0 ? nil : resolve(.modal, context: stackContext, base: FlowStyleAttributes())
        return FlowResolvedStyle(screen: screen, stack: stack, modal: modal)
    }

    /// The attributes one hook gives a context: `base`, then Swift rules, then the rules hook.
    public func resolve(_ hook: FlowStyleHook, context: FlowStyleContext, base: FlowStyleAttributes) -> FlowStyleAttributes {
        var attributes = base
        for rule in styleRules[hook] ?? [] {
            attributes = attributes.merging(rule(context))
        }
        if let rulesHook {
            attributes = attributes.merging(rulesHook.style(for: context, hook: hook))
        }
        return attributes
    }
}
