/// Short forms for writing deep-link plans in Swift: `[.popToRoot(), .push(.detail(id: id))]`.
extension FlowCommand {
    /// Replaces the root stack (every presentation dropped), with an optional path.
    public static func setRoot(_ route: Route, path: [Route] = [], refreshIfSameRoute: Bool = true) -> FlowCommand {
        FlowCommand(.setRoot(route), path: path, refreshIfSameRoute: refreshIfSameRoute)
    }

    /// Pushes a screen.
    public static func push(_ route: Route, on target: FlowStackTarget = .active) -> FlowCommand {
        FlowCommand(.push(route, target: target))
    }

    /// Replaces the top screen.
    public static func replaceCurrent(with route: Route, on target: FlowStackTarget = .active) -> FlowCommand {
        FlowCommand(.replaceCurrent(route, target: target))
    }

    /// Replaces a stack's root and path.
    public static func replacePath(root: Route, path: [Route] = [], on target: FlowStackTarget = .active) -> FlowCommand {
        FlowCommand(.replacePath(root: root, path: path, target: target))
    }

    /// Pops `count` screens.
    public static func pop(_ count: Int = 1, on target: FlowStackTarget = .active) -> FlowCommand {
        FlowCommand(.pop(count: count, target: target))
    }

    /// Pops to the stack's root screen.
    public static func popToRoot(on target: FlowStackTarget = .active) -> FlowCommand {
        FlowCommand(.popToRoot(target: target))
    }

    /// Pops to the last occurrence of `route`.
    public static func popTo(_ route: Route, match: FlowPopMatch = .exclusive, on target: FlowStackTarget = .active) -> FlowCommand {
        FlowCommand(.popTo(route, match: match, target: target))
    }

    /// Presents a sheet with its own path.
    public static func sheet(_ route: Route, path: [Route] = [], options: FlowPresentationOptions = .init()) -> FlowCommand {
        FlowCommand(.present(route, style: .sheet), path: path, options: options)
    }

    /// Presents a full-screen cover with its own path.
    public static func fullScreenCover(
        _ route: Route, path: [Route] = [], options: FlowPresentationOptions = .init()
    ) -> FlowCommand {
        FlowCommand(.present(route, style: .fullScreenCover), path: path, options: options)
    }

    /// Dismisses a presented stack and the ones above it.
    public static func dismiss(_ target: FlowStackTarget = .active) -> FlowCommand {
        FlowCommand(.dismiss(target: target))
    }

    /// Dismisses every presented stack.
    public static func dismissAll() -> FlowCommand {
        FlowCommand(.dismissAll)
    }
}
