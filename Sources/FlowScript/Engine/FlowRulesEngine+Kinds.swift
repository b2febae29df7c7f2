import FlowStackCore

/// The operation kinds as rules scripts name them, in `FlowRuleKind` order: the prelude's `KINDS`
/// is built from this list, so a kind crosses into Lua as its 1-based `FlowRuleKind.position`.
enum FlowRulesEngineKinds {
    /// Every kind's script name, in `KINDS` order.
    static let names = FlowRuleKind.allCases.map(\.rawValue)
}
