import Foundation

// Validation and mutation, `@inlinable` so an app's route type specializes them.
extension FlowRouter {
    /// The index of the stack a target names, if it exists.
    @inlinable @inline(__always)
    func index(for target: FlowStackTarget) -> Int? {
        switch target {
        case .root: return 0
        case .active: return _stacks.count - 1
        case .stack(let id): return _stacks.firstIndex { $0.id == id }
        }
    }

    /// Why a command cannot run against the current state, or `nil` when it can.
    @inlinable
    func validate(_ command: FlowCommand<Route>) -> (FlowOperationStatus, String)? {
        // Push and pop read the command's shape: a switch over the operation would copy it.
        let shape = command.shape
        switch shape.kind {
        case .push:
            guard let target = shape.target else { return validateOther(command) }
            return index(for: target) == nil ? missingStack(target) : nil
        case .pop:
            guard let target = shape.target else { return validateOther(command) }
            guard let index = index(for: target) else { return missingStack(target) }
            if shape.count > 0, index == 0, _stacks[0].storage.isEmpty {
                return (.nothingToPop, "the root stack shows only its root screen")
            }
            return nil
        default:
            return validateOther(command)
        }
    }

    @usableFromInline
    func missingStack(_ target: FlowStackTarget) -> (FlowOperationStatus, String) {
        (.stackNotFound, "no stack \(describe(target)) exists; it may have been dismissed")
    }

    @usableFromInline
    func validateOther(_ command: FlowCommand<Route>) -> (FlowOperationStatus, String)? {
        let operation = command.operation
        var stackIndex = 0
        if let target = operation.target {
            guard let index = index(for: target) else { return missingStack(target) }
            stackIndex = index
        }
        switch operation {
        case .popToRoot:
            if _stacks[stackIndex].storage.isEmpty {
                return (.nothingToPop, "the stack already shows its root screen")
            }
        case .popTo(let route, _, _):
            if _stacks[stackIndex].storage.lastIndex(where: { $0 == route }) == nil {
                return (.routeNotFound, "\(route) is not in the stack's path")
            }
        case .present(_, let style):
            if style == .root {
                return (.failed, "a stack cannot be presented with style .root; use setRoot(_:path:)")
            }
        case .dismiss:
            if stackIndex == 0 {
                return (.nothingToDismiss, "the root stack cannot be dismissed")
            }
        case .dismissAll:
            if _stacks.count == 1 {
                return (.nothingToDismiss, "nothing is presented")
            }
        case .setRoot, .push, .pop, .pushRemovingPrevious, .replaceCurrent, .replacePath:
            break
        }
        return nil
    }

    /// Applies a validated command to the stacks.
    @inlinable
    func mutate(_ command: FlowCommand<Route>) {
        switch command.operation {
        case .push(let route, let target):
            let index = index(for: target)!
            if let batch = command.batch {
                for pushed in batch { _stacks[index].storage.append(makeNode(pushed)) }
            } else {
                _stacks[index].storage.append(makeNode(route))
            }
        case .pop(let count, let target):
            let index = index(for: target)!
            let removable = min(count, _stacks[index].storage.count)
            _stacks[index].storage.removeLast(removable)
            if removable < count, index > 0 {
                dismissStack(at: index)
            }
        case .setRoot(let route):
            setRoot(route, path: command.path, refresh: command.refreshIfSameRoute)
        case .pushRemovingPrevious(let route, let target), .replaceCurrent(let route, let target):
            replaceTop(with: route, at: index(for: target)!)
        case .replacePath(let root, let path, let target):
            replacePath(root: root, path: path, at: index(for: target)!, refresh: command.refreshIfSameRoute)
        case .popToRoot(let target):
            _stacks[index(for: target)!].storage = FlowPath()
        case .popTo(let route, let match, let target):
            popTo(route, match: match, at: index(for: target)!)
        case .present(let route, let style):
            _stacks.append(makeStack(root: route, path: command.path, style: style, options: command.options))
        case .dismiss(let target):
            if let index = index(for: target) {
                dismissStack(at: index)
            }
        case .dismissAll:
            _stacks.removeSubrange(1...)
        }
    }

    /// Replaces the top screen of the stack at `index` (its root when the path is empty).
    @usableFromInline
    func replaceTop(with route: Route, at index: Int) {
        if _stacks[index].storage.isEmpty {
            _stacks[index].replaceRoot(route, id: ids.next())
        } else {
            _stacks[index].storage.removeLast(1)
            _stacks[index].storage.append(makeNode(route))
        }
    }

    /// Replaces the root and path of the stack at `index`; without `refresh`, the same root keeps
    /// its identity and the screens the new path shares with the old one keep theirs.
    @usableFromInline
    func replacePath(root: Route, path: [Route], at index: Int, refresh: Bool) {
        if !refresh, _stacks[index].root == root {
            keepSharedScreens(ofStack: index, path: path)
        } else {
            _stacks[index].replaceRoot(root, id: ids.next())
            _stacks[index].storage = FlowPath(nodes: path.map { makeNode($0) })
        }
    }

    /// Pops the stack at `index` back to the last screen showing `route` (and that screen too
    /// with `.inclusive`).
    @usableFromInline
    func popTo(_ route: Route, match: FlowPopMatch, at index: Int) {
        if let position = _stacks[index].storage.lastIndex(where: { $0 == route }) {
            _stacks[index].storage.keepFirst(match == .inclusive ? position : position + 1)
        }
    }

    /// Replaces the root stack (same route without `refresh`: only the presentations go, and the
    /// root stack keeps its identities and the screens the new path shares with the old one).
    @usableFromInline
    func setRoot(_ route: Route, path: [Route], refresh: Bool) {
        if _stacks.first?.root == route {
            if !refresh {
                _stacks.removeSubrange(1...)
                keepSharedScreens(ofStack: 0, path: path)
                return
            }
            rootID = ids.next()
        }
        _stacks = [makeStack(root: route, path: path, style: .root, options: .init())]
    }

    /// Sets the path of the stack at `index` to `path`, keeping the identities of the screens it
    /// shares with the old path (the longest common prefix of routes).
    @usableFromInline
    func keepSharedScreens(ofStack index: Int, path: [Route]) {
        let old = _stacks[index].storage.nodes
        var shared = 0
        while shared < min(old.count, path.count), old[shared].route == path[shared] { shared += 1 }
        _stacks[index].storage.keepFirst(shared)
        for route in path[shared...] { _stacks[index].storage.append(makeNode(route)) }
    }

    /// Removes a presented stack (and, by its options, the ones above it).
    @usableFromInline
    func dismissStack(at index: Int) {
        guard index > 0, _stacks.indices.contains(index) else { return }
        if _stacks[index].options.clearsNestedPresentationOnDismiss {
            _stacks.removeSubrange(index...)
        } else {
            _stacks.remove(at: index)
        }
    }

    func describe(_ target: FlowStackTarget) -> String {
        switch target {
        case .root: "root"
        case .active: "active"
        case .stack(let id): "with id \(id.uuidString)"
        }
    }
}
