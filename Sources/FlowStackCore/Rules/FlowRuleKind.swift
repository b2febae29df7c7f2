import Foundation

/// An operation's kind as rules scripts name it (`op.kind`).
///
/// Finer than ``FlowOperationKind``: a batch push is `pushMany` and a presentation is `sheet` or
/// `fullScreenCover`. The declaration order is the contract's: the Lua engine's `KINDS` list and
/// its C decide loop number kinds by their 1-based position in `allCases`.
public enum FlowRuleKind: String, Hashable, Codable, Sendable, CaseIterable {
    /// `setRoot`.
    case setRoot
    /// One route pushed.
    case push
    /// Several routes pushed at once (`push(contentsOf:)`).
    case pushMany
    /// The stack edits, each as ``FlowOperationKind`` names it: `pushRemovingPrevious`,
    /// `replaceCurrent`, `replacePath`, `pop(count)`, `popToRoot`, `popTo(route)`.
    case pushRemovingPrevious, replaceCurrent, replacePath, pop, popToRoot, popTo
    /// A stack presented as a sheet.
    case sheet
    /// A stack presented as a full-screen cover.
    case fullScreenCover
    /// `dismiss`.
    case dismiss
    /// `dismissAll`.
    case dismissAll
    /// A tab selection (`selectTab`).
    case selectTab

    /// The kind's 1-based position in `allCases`, as Lua numbers it.
    package var position: Int {
        switch self {
        case .setRoot: 1
        case .push: 2
        case .pushMany: 3
        case .pushRemovingPrevious: 4
        case .replaceCurrent: 5
        case .replacePath: 6
        case .pop: 7
        case .popToRoot: 8
        case .popTo: 9
        case .sheet: 10
        case .fullScreenCover: 11
        case .dismiss: 12
        case .dismissAll: 13
        case .selectTab: 14
        }
    }

    /// A command's kind, read from its shape (a switch over the operation would copy it).
    @inlinable
    public init<Route>(_ command: borrowing FlowCommand<Route>) {
        if command.batch != nil {
            self = .pushMany
            return
        }
        switch command.shape.kind {
        case .setRoot: self = .setRoot
        case .push: self = .push
        case .pushRemovingPrevious: self = .pushRemovingPrevious
        case .replaceCurrent: self = .replaceCurrent
        case .replacePath: self = .replacePath
        case .pop: self = .pop
        case .popToRoot: self = command.tab == nil ? .popToRoot : .selectTab
        case .popTo: self = .popTo
        case .present: self = command.shape.style == .fullScreenCover ? .fullScreenCover : .sheet
        case .dismiss: self = .dismiss
        case .dismissAll: self = .dismissAll
        }
    }
}
