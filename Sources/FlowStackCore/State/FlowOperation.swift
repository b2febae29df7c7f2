import Foundation

/// A navigation operation, as preconditions, guards and the history see it.
public enum FlowOperation<Route: Hashable>: Hashable {
    /// Replace the root stack (and drop every presentation).
    case setRoot(Route)
    /// Push a screen.
    case push(Route, target: FlowStackTarget)
    /// Push a screen and remove the one below it.
    case pushRemovingPrevious(Route, target: FlowStackTarget)
    /// Replace the top screen.
    case replaceCurrent(Route, target: FlowStackTarget)
    /// Replace a stack's root and path.
    case replacePath(root: Route, path: [Route], target: FlowStackTarget)
    /// Pop screens.
    case pop(count: Int, target: FlowStackTarget)
    /// Pop to the stack's root screen.
    case popToRoot(target: FlowStackTarget)
    /// Pop to the last occurrence of a route.
    case popTo(Route, match: FlowPopMatch, target: FlowStackTarget)
    /// Present a new stack.
    case present(Route, style: FlowPresentationStyle)
    /// Dismiss a presented stack and the ones above it.
    case dismiss(target: FlowStackTarget)
    /// Dismiss every presented stack.
    case dismissAll
}

/// The kind of a `FlowOperation`, used to register default preconditions.
public enum FlowOperationKind: String, Hashable, Codable, Sendable, CaseIterable {
    /// `setRoot`.
    case setRoot
    /// `push` (and each push of `push(contentsOf:)`).
    case push
    /// `pushRemovingPrevious`.
    case pushRemovingPrevious
    /// `replaceCurrent`.
    case replaceCurrent
    /// `replacePath`.
    case replacePath
    /// `pop`.
    case pop
    /// `popToRoot`.
    case popToRoot
    /// `popTo`.
    case popTo
    /// `present`, `sheet` and `fullScreenCover`.
    case present
    /// `dismiss`.
    case dismiss
    /// `dismissAll`.
    case dismissAll
}

extension FlowOperation {
    /// The operation's kind.
    @inlinable @inline(__always)
    public var kind: FlowOperationKind {
        switch self {
        case .setRoot: .setRoot
        case .push: .push
        case .pushRemovingPrevious: .pushRemovingPrevious
        case .replaceCurrent: .replaceCurrent
        case .replacePath: .replacePath
        case .pop: .pop
        case .popToRoot: .popToRoot
        case .popTo: .popTo
        case .present: .present
        case .dismiss: .dismiss
        case .dismissAll: .dismissAll
        }
    }

    /// The stack the operation targets (`nil` for `setRoot`, `present` and `dismissAll`).
    @inlinable
    public var target: FlowStackTarget? {
        switch self {
        case .setRoot, .present, .dismissAll: nil
        case .push(_, let target), .pushRemovingPrevious(_, let target), .replaceCurrent(_, let target),
             .replacePath(_, _, let target), .pop(_, let target), .popToRoot(let target),
             .popTo(_, _, let target), .dismiss(let target):
            target
        }
    }

    /// The routes the operation navigates to: what route guards look at.
    @inlinable
    public var routes: [Route] {
        switch self {
        case .setRoot(let route), .push(let route, _), .pushRemovingPrevious(let route, _),
             .replaceCurrent(let route, _), .popTo(let route, _, _), .present(let route, _):
            [route]
        case .replacePath(let root, let path, _):
            [root] + path
        case .pop, .popToRoot, .dismiss, .dismissAll:
            []
        }
    }
}

extension FlowOperationKind {
    /// The kind's position in `allCases`, for table lookups.
    @inlinable
    public var tableIndex: Int {
        switch self {
        case .setRoot: 0
        case .push: 1
        case .pushRemovingPrevious: 2
        case .replaceCurrent: 3
        case .replacePath: 4
        case .pop: 5
        case .popToRoot: 6
        case .popTo: 7
        case .present: 8
        case .dismiss: 9
        case .dismissAll: 10
        }
    }
}

extension FlowOperation: Codable where Route: Codable {}
extension FlowOperation: Sendable where Route: Sendable {}
