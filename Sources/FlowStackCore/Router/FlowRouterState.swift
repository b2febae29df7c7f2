import Foundation

/// The complete state of a router as a value: stacks, root identity, visible dialog and queue.
///
/// `Equatable` when `Dialog` is, `Codable` when `Route` and `Dialog` are: save it, restore it
/// with `FlowRouter.restore(_:)`, and the router continues exactly where it was.
public struct FlowRouterState<Route: Hashable, Dialog> {
    /// The stacks, root first.
    public var stacks: [FlowStackState<Route>]
    /// The root identity.
    public var rootID: UUID
    /// The visible global dialog.
    public var globalDialog: Dialog?
    /// The queued dialogs, next first.
    public var dialogQueue: [Dialog]

    /// Creates a state value.
    public init(stacks: [FlowStackState<Route>], rootID: UUID, globalDialog: Dialog? = nil, dialogQueue: [Dialog] = []) {
        self.stacks = stacks
        self.rootID = rootID
        self.globalDialog = globalDialog
        self.dialogQueue = dialogQueue
    }

    /// Why this state cannot drive a router, or `nil` when it can.
    public var problem: String? {
        guard let first = stacks.first else { return "a router state needs at least the root stack" }
        if first.style != .root { return "the first stack must have style .root, not .\(first.style.rawValue)" }
        if let bad = stacks.dropFirst().first(where: { $0.style == .root }) {
            return "only the first stack may have style .root (stack \(bad.id.uuidString) has it)"
        }
        var seen = Set<UUID>()
        for stack in stacks {
            for id in [stack.id, stack.rootID] + stack.storage.nodes.map(\.id) where !seen.insert(id).inserted {
                return "identity \(id.uuidString) appears twice; every stack and screen needs its own"
            }
        }
        return nil
    }
}

extension FlowRouterState: Equatable where Dialog: Equatable {}
extension FlowRouterState: Codable where Route: Codable, Dialog: Codable {}
extension FlowRouterState: Sendable where Route: Sendable, Dialog: Sendable {}

/// A router state that cannot be restored.
public struct FlowStateError: Error, CustomStringConvertible, Equatable {
    /// What is wrong with the state.
    public let description: String
}

extension FlowRouter {
    /// The router's complete state as a value.
    public var state: FlowRouterState<Route, Dialog> {
        FlowRouterState(stacks: stacks, rootID: rootID, globalDialog: globalDialog, dialogQueue: dialogQueue)
    }

    /// Replaces the whole state (state restoration). The history is kept; observers hear
    /// `.restored`. Throws when the state is malformed, leaving the router unchanged.
    public func restore(_ state: FlowRouterState<Route, Dialog>) throws {
        if let problem = state.problem { throw FlowStateError(description: problem) }
        willChange()
        _stacks = state.stacks
        rootID = state.rootID
        globalDialog = state.globalDialog
        dialogQueue = state.dialogQueue
        didChange(.restored)
    }

    /// Creates a router from a saved state.
    public convenience init(state: FlowRouterState<Route, Dialog>) throws {
        guard let root = state.stacks.first?.root else {
            throw FlowStateError(description: "a router state needs at least the root stack")
        }
        self.init(root: root)
        try restore(state)
    }
}
