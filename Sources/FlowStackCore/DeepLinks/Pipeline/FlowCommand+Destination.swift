extension FlowCommand {
    /// The screen the command ends on when it names one (`nil` for pops and dismissals,
    /// whose result depends on the state).
    var destination: Route? {
        switch operation {
        case .setRoot(let route), .present(let route, _):
            return path.last ?? route
        case .replacePath(let root, let path, _):
            return path.last ?? root
        case .push, .pushRemovingPrevious, .replaceCurrent:
            return routes.last
        case .popTo(let route, let match, _):
            return match == .exclusive ? route : nil
        case .pop, .popToRoot, .dismiss, .dismissAll:
            return nil
        }
    }

    /// Whether `stacks` already show what the command would navigate to: the target stack's top
    /// screen is its destination, and for a presentation the front-most stack is that
    /// presentation. Used so a held deep link does not stack redirects (login screens).
    func isShowing(in stacks: [FlowStackState<Route>]) -> Bool {
        guard let destination, let front = stacks.last else { return false }
        switch operation {
        case .present(let route, let style):
            return front.style == style && front.root == route && front.topRoute == destination
        case .setRoot:
            return stacks.count == 1 && front.topRoute == destination
        default:
            let stack: FlowStackState<Route>?
            switch operation.target {
            case .root: stack = stacks.first
            case .stack(let id): stack = stacks.first { $0.id == id }
            case .active, nil: stack = front
            }
            return stack?.topRoute == destination
        }
    }
}
