import FlowStackCore

/// The styles the Lua style rules gave, kept for the rules and facts they were resolved under.
///
/// SwiftUI evaluates a view's body often, and every evaluation asks for its screen's, stack's and
/// presentation's style; style rules are functions of their context and the facts (the contract
/// says so), so one (hook, context) runs them once per rules generation and facts. A resolution
/// during which a rule called a host function is not kept: the host's answer can change while the
/// facts do not.
struct FlowStyleCache {
    private struct Key: Hashable {
        let hook: FlowStyleHook
        let context: FlowStyleContext
    }

    /// How many resolutions are kept before the cache starts again: contexts carry each stack's
    /// identity, and stacks come and go.
    static let capacity = 1_024

    private var generation = -1
    private var facts: [String: FlowScriptValue] = [:]
    private var entries: [Key: FlowStyleAttributes?] = [:]

    /// The kept resolution of `hook` for `context`: `.some(nil)` when the rules styled nothing,
    /// `nil` when nothing is kept (the rules or the facts changed since, or never resolved).
    mutating func lookup(
        _ hook: FlowStyleHook, _ context: FlowStyleContext, generation: Int, facts: [String: FlowScriptValue]
    ) -> FlowStyleAttributes?? {
        guard generation == self.generation, facts == self.facts else {
            entries.removeAll(keepingCapacity: true)
            self.generation = generation
            self.facts = facts
            return nil
        }
        return entries[Key(hook: hook, context: context)]
    }

    /// Keeps a resolution made under the generation and facts of the last `lookup`.
    mutating func store(_ attributes: FlowStyleAttributes?, _ hook: FlowStyleHook, _ context: FlowStyleContext) {
        if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
        entries[Key(hook: hook, context: context)] = .some(attributes)
    }
}
