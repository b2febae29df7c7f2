import Foundation

/// An operation's kind and its fields that hold no route, kept beside the operation in a
/// `FlowCommand`.
///
/// In code specialized for an app's route type, every `switch` over a `FlowOperation` copies the
/// whole enum through its value witnesses (about a hundred instructions), even to read its kind.
/// The router's hot path (validation, the Swift checks, what the rules need) reads this plain
/// value instead, and switches over the operation only where it needs a route.
///
/// Not API: `package`, usable from inlinable code so that the rules engine's specialized code can
/// read it.
@usableFromInline
package struct FlowOperationShape: Hashable, Sendable {
    /// The operation's kind.
    @usableFromInline package var kind: FlowOperationKind
    /// The stack the operation targets (`nil` for `setRoot`, `present` and `dismissAll`).
    @usableFromInline package var target: FlowStackTarget?
    /// How many screens a `pop` removes (0 for the other kinds).
    @usableFromInline package var count: Int
    /// A presentation's style (`.root` for the other kinds).
    @usableFromInline package var style: FlowPresentationStyle

    /// The shape of `operation`.
    @inlinable
    package init<Route>(_ operation: FlowOperation<Route>) {
        count = 0
        style = .root
        switch operation {
        case .setRoot:
            kind = .setRoot
            target = nil
        case .push(_, let target):
            kind = .push
            self.target = target
        case .pushRemovingPrevious(_, let target):
            kind = .pushRemovingPrevious
            self.target = target
        case .replaceCurrent(_, let target):
            kind = .replaceCurrent
            self.target = target
        case .replacePath(_, _, let target):
            kind = .replacePath
            self.target = target
        case .pop(let count, let target):
            kind = .pop
            self.target = target
            self.count = count
        case .popToRoot(let target):
            kind = .popToRoot
            self.target = target
        case .popTo(_, _, let target):
            kind = .popTo
            self.target = target
        case .present(_, let style):
            kind = .present
            target = nil
            self.style = style
        case .dismiss(let target):
            kind = .dismiss
            self.target = target
        case .dismissAll:
            kind = .dismissAll
            target = nil
        }
    }
}
