import Foundation

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
