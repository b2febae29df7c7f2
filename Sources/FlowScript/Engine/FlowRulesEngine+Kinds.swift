import FlowStackCore

/// The operation kinds as rules scripts name them; the prelude's `KINDS` is built from this list, so a
/// kind crosses into Lua as its 1-based position in this list.
@usableFromInline
enum FlowRulesEngineKinds {
    /// Every kind's script name, in `KINDS` order.
    @usableFromInline static let names = [
        "setRoot", "push", "pushMany", "pushRemovingPrevious", "replaceCurrent", "replacePath", "pop",
        "popToRoot", "popTo", "sheet", "fullScreenCover", "dismiss", "dismissAll",
    ]

    /// A command's kind as its 1-based position in `names`, without building its name or copying its operation: a batch is
    /// `pushMany`, a presentation `sheet` or `fullScreenCover` by its style.
    @inlinable @inline(__always)
    static func index<Route>(of command: FlowCommand<Route>) -> Int {
        if command.batch != nil { return 3 }
        switch command.shape.kind {
        case .setRoot: return 1
        case .push: return 2
        case .pushRemovingPrevious: return 4
        case .replaceCurrent: return 5
        case .replacePath: return 6
        case .pop: return 7
        case .popToRoot: return 8
        case .popTo: return 9
        case .present: return command.shape.style == .fullScreenCover ? 11 : 10
        case .dismiss: return 12
        case .dismissAll: return 13
        }
    }
}
