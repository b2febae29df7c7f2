import Foundation

/// What the person already did with a system gesture, reported by the UI layer.
///
/// These always apply, are recorded with source `user`, and skip preconditions, the guard and
/// the rules: the screen has already moved. To prevent a gesture, a style rule sets
/// `navigationBarBackButtonHidden` or `interactiveDismissDisabled`.
extension FlowRouter {
    /// The person swiped back on a stack until `depth` screens remain above its root.
    @discardableResult
    public func userDidPop(toDepth depth: Int, in stackID: UUID) -> FlowOperationResult<Route>? {
        guard let index = stacks.firstIndex(where: { $0.id == stackID }) else { return nil }
        let count = stacks[index].storage.count - max(0, depth)
        guard count > 0 else { return nil }
        return perform(FlowCommand(.pop(count: count, target: .stack(stackID))), source: .user)
    }

    /// The person swiped back once on the front-most stack.
    @discardableResult
    public func userDidPop() -> FlowOperationResult<Route>? {
        let stack = activeStack
        guard !stack.storage.isEmpty else { return nil }
        return userDidPop(toDepth: stack.storage.count - 1, in: stack.id)
    }

    /// The person swiped down a presented stack (it and the stacks above it are gone).
    @discardableResult
    public func userDidDismiss(stackID: UUID) -> FlowOperationResult<Route>? {
        guard let index = stacks.firstIndex(where: { $0.id == stackID }), index > 0 else { return nil }
        return perform(FlowCommand(.dismiss(target: .stack(stackID))), source: .user)
    }

    /// The person swiped down the front-most presented stack.
    @discardableResult
    public func userDidDismiss() -> FlowOperationResult<Route>? {
        guard isPresenting else { return nil }
        return userDidDismiss(stackID: activeStack.id)
    }

    /// A navigation view changed a stack's path itself (a back swipe, or a link pushing a
    /// value): records it as the matching user operation.
    @discardableResult
    public func userDidChangePath(_ routes: [Route], in stackID: UUID) -> FlowOperationResult<Route>? {
        guard let index = stacks.firstIndex(where: { $0.id == stackID }) else { return nil }
        let current = stacks[index].path
        if routes.count < current.count, Array(current.prefix(routes.count)) == routes {
            return userDidPop(toDepth: routes.count, in: stackID)
        }
        if routes.count > current.count, Array(routes.prefix(current.count)) == current {
            let added = Array(routes[current.count...])
            return perform(FlowCommand.pushMany(added, target: .stack(stackID))!, source: .user)
        }
        guard routes != current else { return nil }
        // The root did not move: keep its identity and the shared screens' (no rebuild in the UI).
        let command = FlowCommand(
            .replacePath(root: stacks[index].root, path: routes, target: .stack(stackID)), refreshIfSameRoute: false
        )
        return perform(command, source: .user)
    }
}
