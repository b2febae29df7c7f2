import Foundation

/// FlowStack's actions: each returns whether it applied and takes an optional one-off condition
/// that replaces the default preconditions for that call.
extension FlowRouter {
    /// Replaces the root stack (fresh root identity, every presentation dropped).
    ///
    /// With `refreshIfSameRoute == false` and the same root route, the root stack keeps its
    /// identities (`id`, `rootID`, and the screens the new path shares with the old one), so the
    /// SwiftUI host keeps its views; only the presentations are dismissed and the path set.
    @inlinable
    @discardableResult
    public func setRoot(
        _ route: Route,
        path: [Route] = [],
        refreshIfSameRoute: Bool = true,
        condition: Precondition? = nil
    ) -> Bool {
        performApplied(FlowCommand(.setRoot(route), path: path, refreshIfSameRoute: refreshIfSameRoute), condition: condition)
    }

    /// Pushes a screen.
    @inlinable
    @discardableResult
    public func push(_ route: Route, on target: FlowStackTarget = .active, condition: Precondition? = nil) -> Bool {
        performApplied(FlowCommand(.push(route, target: target)), condition: condition)
    }

    /// Pushes several screens, all or none (the rules see one `pushMany`).
    @inlinable
    @discardableResult
    public func push(contentsOf routes: [Route], on target: FlowStackTarget = .active, condition: Precondition? = nil) -> Bool {
        guard let command = FlowCommand.pushMany(routes, target: target) else { return true }
        return performApplied(command, condition: condition)
    }

    /// Pushes a screen and removes the one below it (on a stack's root: replaces the root).
    @inlinable
    @discardableResult
    public func pushRemovingPrevious(_ route: Route, on target: FlowStackTarget = .active, condition: Precondition? = nil) -> Bool {
        performApplied(FlowCommand(.pushRemovingPrevious(route, target: target)), condition: condition)
    }

    /// Replaces the top screen (on a stack's root: replaces the root).
    @inlinable
    @discardableResult
    public func replaceCurrent(with route: Route, on target: FlowStackTarget = .active, condition: Precondition? = nil) -> Bool {
        performApplied(FlowCommand(.replaceCurrent(route, target: target)), condition: condition)
    }

    /// Replaces a stack's root and path.
    @inlinable
    @discardableResult
    public func replacePath(root: Route, path: [Route] = [], on target: FlowStackTarget = .active, condition: Precondition? = nil) -> Bool {
        performApplied(FlowCommand(.replacePath(root: root, path: path, target: target)), condition: condition)
    }

    /// Pops `count` screens; past a presented stack's path it dismisses that stack; on the root
    /// stack the excess is ignored. A count of 0 or less does nothing and returns true.
    @inlinable
    @discardableResult
    public func pop(count: Int = 1, on target: FlowStackTarget = .active, condition: Precondition? = nil) -> Bool {
        guard count > 0 else { return true }
        return performApplied(FlowCommand(.pop(count: count, target: target)), condition: condition)
    }

    /// Pops to the stack's root screen.
    @inlinable
    @discardableResult
    public func popToRoot(on target: FlowStackTarget = .active, condition: Precondition? = nil) -> Bool {
        performApplied(FlowCommand(.popToRoot(target: target)), condition: condition)
    }

    /// Pops to the last occurrence of `route` in the stack's path.
    @inlinable
    @discardableResult
    public func popTo(_ route: Route, match: FlowPopMatch = .exclusive, on target: FlowStackTarget = .active, condition: Precondition? = nil) -> Bool {
        performApplied(FlowCommand(.popTo(route, match: match, target: target)), condition: condition)
    }

    /// Presents a new stack with its own path.
    @inlinable
    @discardableResult
    public func present(
        _ route: Route,
        style: FlowPresentationStyle = .sheet,
        path: [Route] = [],
        options: FlowPresentationOptions = .init(),
        condition: Precondition? = nil
    ) -> Bool {
        performApplied(FlowCommand(.present(route, style: style), path: path, options: options), condition: condition)
    }

    /// Presents a sheet.
    @inlinable
    @discardableResult
    public func sheet(_ route: Route, path: [Route] = [], options: FlowPresentationOptions = .init(), condition: Precondition? = nil) -> Bool {
        present(route, style: .sheet, path: path, options: options, condition: condition)
    }

    /// Presents a full-screen cover.
    @inlinable
    @discardableResult
    public func fullScreenCover(_ route: Route, path: [Route] = [], options: FlowPresentationOptions = .init(), condition: Precondition? = nil) -> Bool {
        present(route, style: .fullScreenCover, path: path, options: options, condition: condition)
    }

    /// Dismisses a presented stack and everything above it (the root stack: nothing to dismiss).
    @inlinable
    @discardableResult
    public func dismiss(_ target: FlowStackTarget = .active, condition: Precondition? = nil) -> Bool {
        performApplied(FlowCommand(.dismiss(target: target)), condition: condition)
    }

    /// Dismisses every presented stack; the root stack keeps its path.
    @inlinable
    @discardableResult
    public func dismissAll(condition: Precondition? = nil) -> Bool {
        performApplied(FlowCommand(.dismissAll), condition: condition)
    }
}

/// The async actions: each waits for its turn in the serialized queue, then evaluates its async
/// and sync preconditions and the rules against the state at that moment.
extension FlowRouter {
    /// Replaces the root stack through the async queue.
    @discardableResult
    public func setRootAsync(_ route: Route, path: [Route] = [], refreshIfSameRoute: Bool = true, condition: AsyncPrecondition? = nil) async -> Bool {
        await performAsync(FlowCommand(.setRoot(route), path: path, refreshIfSameRoute: refreshIfSameRoute), condition: condition).isApplied
    }

    /// Pushes a screen through the async queue.
    @discardableResult
    public func pushAsync(_ route: Route, on target: FlowStackTarget = .active, condition: AsyncPrecondition? = nil) async -> Bool {
        await performAsync(FlowCommand(.push(route, target: target)), condition: condition).isApplied
    }

    /// Pushes several screens, all or none, through the async queue.
    @discardableResult
    public func pushAsync(contentsOf routes: [Route], on target: FlowStackTarget = .active, condition: AsyncPrecondition? = nil) async -> Bool {
        guard let command = FlowCommand.pushMany(routes, target: target) else { return true }
        return await performAsync(command, condition: condition).isApplied
    }

    /// Pushes a screen and removes the previous one through the async queue.
    @discardableResult
    public func pushRemovingPreviousAsync(_ route: Route, on target: FlowStackTarget = .active, condition: AsyncPrecondition? = nil) async -> Bool {
        await performAsync(FlowCommand(.pushRemovingPrevious(route, target: target)), condition: condition).isApplied
    }

    /// Replaces the top screen through the async queue.
    @discardableResult
    public func replaceCurrentAsync(with route: Route, on target: FlowStackTarget = .active, condition: AsyncPrecondition? = nil) async -> Bool {
        await performAsync(FlowCommand(.replaceCurrent(route, target: target)), condition: condition).isApplied
    }

    /// Replaces a stack's root and path through the async queue.
    @discardableResult
    public func replacePathAsync(root: Route, path: [Route] = [], on target: FlowStackTarget = .active, condition: AsyncPrecondition? = nil) async -> Bool {
        await performAsync(FlowCommand(.replacePath(root: root, path: path, target: target)), condition: condition).isApplied
    }

    /// Presents a stack through the async queue.
    @discardableResult
    public func presentAsync(
        _ route: Route,
        style: FlowPresentationStyle = .sheet,
        path: [Route] = [],
        options: FlowPresentationOptions = .init(),
        condition: AsyncPrecondition? = nil
    ) async -> Bool {
        await performAsync(FlowCommand(.present(route, style: style), path: path, options: options), condition: condition).isApplied
    }

    /// Presents a sheet through the async queue.
    @discardableResult
    public func sheetAsync(_ route: Route, path: [Route] = [], options: FlowPresentationOptions = .init(), condition: AsyncPrecondition? = nil) async -> Bool {
        await presentAsync(route, style: .sheet, path: path, options: options, condition: condition)
    }

    /// Presents a full-screen cover through the async queue.
    @discardableResult
    public func fullScreenCoverAsync(_ route: Route, path: [Route] = [], options: FlowPresentationOptions = .init(), condition: AsyncPrecondition? = nil) async -> Bool {
        await presentAsync(route, style: .fullScreenCover, path: path, options: options, condition: condition)
    }

    /// Pops screens through the async queue.
    @discardableResult
    public func popAsync(count: Int = 1, on target: FlowStackTarget = .active, condition: AsyncPrecondition? = nil) async -> Bool {
        guard count > 0 else { return true }
        return await performAsync(FlowCommand(.pop(count: count, target: target)), condition: condition).isApplied
    }

    /// Pops to the root screen through the async queue.
    @discardableResult
    public func popToRootAsync(on target: FlowStackTarget = .active, condition: AsyncPrecondition? = nil) async -> Bool {
        await performAsync(FlowCommand(.popToRoot(target: target)), condition: condition).isApplied
    }

    /// Pops to the last occurrence of a route through the async queue.
    @discardableResult
    public func popToAsync(_ route: Route, match: FlowPopMatch = .exclusive, on target: FlowStackTarget = .active, condition: AsyncPrecondition? = nil) async -> Bool {
        await performAsync(FlowCommand(.popTo(route, match: match, target: target)), condition: condition).isApplied
    }

    /// Dismisses a presented stack through the async queue.
    @discardableResult
    public func dismissAsync(_ target: FlowStackTarget = .active, condition: AsyncPrecondition? = nil) async -> Bool {
        await performAsync(FlowCommand(.dismiss(target: target)), condition: condition).isApplied
    }

    /// Dismisses every presented stack through the async queue.
    @discardableResult
    public func dismissAllAsync(condition: AsyncPrecondition? = nil) async -> Bool {
        await performAsync(FlowCommand(.dismissAll), condition: condition).isApplied
    }
}
