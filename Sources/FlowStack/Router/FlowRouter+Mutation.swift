import Foundation

extension FlowRouter {
    /// The index of the stack a target names, if it exists.
    func index(for target: FlowStackTarget) -> Int? {
        switch target {
        case .root: return 0
        case .active: return activeIndex
        case .stack(let id): return stacks.firstIndex { $0.id == id }
        }
    }

    /// Why a command cannot run against the current state, or `nil` when it can.
    func validate(_ command: FlowCommand<Route>) -> (FlowOperationOutcome, String)? {
        let operation = command.operation
        var stackIndex: Int?
        if let target = operation.target {
            guard let index = index(for: target) else {
                return (.stackNotFound, "no stack \(describe(target)) exists; it may have been dismissed")
            }
            stackIndex = index
        }
        switch operation {
        case .pop(let count, _):
            let index = stackIndex!
            if count > 0, stacks[index].storage.isEmpty, index == 0 {
                return (.nothingToPop, "the root stack shows only its root screen")
            }
        case .popToRoot:
            if stacks[stackIndex!].storage.isEmpty {
                return (.nothingToPop, "the stack already shows its root screen")
            }
        case .popTo(let route, _, _):
            if stacks[stackIndex!].storage.lastIndex(where: { $0 == route }) == nil {
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
            if stacks.count == 1 {
                return (.nothingToDismiss, "nothing is presented")
            }
        case .setRoot, .push, .pushRemovingPrevious, .replaceCurrent, .replacePath:
            break
        }
        return nil
    }

    /// Applies a validated command to the stacks.
    func mutate(_ command: FlowCommand<Route>) {
        switch command.operation {
        case .setRoot(let route):
            if command.refreshIfSameRoute, stacks.first?.root == route {
                rootID = ids.next()
            }
            stacks = [makeStack(root: route, path: command.path, style: .root, options: .init())]
        case .push(let route, let target):
            let index = index(for: target)!
            for pushed in command.batch ?? [route] {
                stacks[index].storage.append(makeNode(pushed))
            }
        case .pushRemovingPrevious(let route, let target), .replaceCurrent(let route, let target):
            let index = index(for: target)!
            if stacks[index].storage.isEmpty {
                stacks[index].root = route
                stacks[index].rootID = ids.next()
            } else {
                stacks[index].storage.removeLast(1)
                stacks[index].storage.append(makeNode(route))
            }
        case .replacePath(let root, let path, let target):
            let index = index(for: target)!
            if !command.refreshIfSameRoute, stacks[index].root == root {
                // Keep the root's identity and the screens the new path shares with the old one.
                let old = stacks[index].storage.nodes
                var shared = 0
                while shared < min(old.count, path.count), old[shared].route == path[shared] { shared += 1 }
                stacks[index].storage.keepFirst(shared)
                for route in path[shared...] { stacks[index].storage.append(makeNode(route)) }
            } else {
                stacks[index].root = root
                stacks[index].rootID = ids.next()
                stacks[index].storage = FlowPath(nodes: path.map { makeNode($0) })
            }
        case .pop(let count, let target):
            let index = index(for: target)!
            let removable = min(count, stacks[index].storage.count)
            stacks[index].storage.removeLast(removable)
            if removable < count, index > 0 {
                dismissStack(at: index)
            }
        case .popToRoot(let target):
            let index = index(for: target)!
            stacks[index].storage = FlowPath()
        case .popTo(let route, let match, let target):
            let index = index(for: target)!
            if let position = stacks[index].storage.lastIndex(where: { $0 == route }) {
                stacks[index].storage.keepFirst(match == .inclusive ? position : position + 1)
            }
        case .present(let route, let style):
            stacks.append(makeStack(root: route, path: command.path, style: style, options: command.options))
        case .dismiss(let target):
            if let index = index(for: target) {
                dismissStack(at: index)
            }
        case .dismissAll:
            stacks.removeSubrange(1...)
        }
    }

    /// Removes a presented stack (and, by its options, the ones above it).
    func dismissStack(at index: Int) {
        guard index > 0, stacks.indices.contains(index) else { return }
        if stacks[index].options.clearsNestedPresentationOnDismiss {
            stacks.removeSubrange(index...)
        } else {
            stacks.remove(at: index)
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
