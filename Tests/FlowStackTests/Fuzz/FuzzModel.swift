import FlowStackCore
import Foundation

/// A screen of the model: its route, and its identity once the router has given it one.
struct ModelNode {
    var route: FuzzRoute
    var id: UUID?
}

/// A stack of the model; `nil` identities are fresh ones the router must have just created.
struct ModelStack {
    var id: UUID?
    var root: FuzzRoute
    var rootID: UUID?
    var path: [ModelNode]
    var style: FlowPresentationStyle
    var options: FlowPresentationOptions

    var routes: [FuzzRoute] { [root] + path.map(\.route) }
}

/// One history entry the model expects.
struct ModelEntry: Equatable, CustomStringConvertible {
    var status: FlowOperationStatus
    var source: FlowOperationSource

    var description: String { "\(status.rawValue)(\(source.rawValue))" }
}

/// The model's result of one request.
struct ModelResult {
    var status: FlowOperationStatus
    var redirectApplied = false

    /// Whether the request (or a redirect it led to) changed the stacks.
    var changedStacks: Bool { status == .applied || redirectApplied }
}

/// A running transaction of the model.
struct ModelTransaction {
    var saved: (stacks: [ModelStack], rootID: UUID?, dialog: String?, queue: [String])
    var steps = 0
    var failedIndex: Int?
    var failedEntry: ModelEntry?
    var entries: [ModelEntry] = []
}

/// A simple reference model of the router: stacks as arrays of routes, the dialog and its queue,
/// and the checks a request goes through, written from the documented behaviour.
struct FuzzModel {
    var stacks: [ModelStack]
    var rootID: UUID?
    var dialog: String?
    var queue: [String] = []
    var rulesInstalled = true
    var guardGate: FuzzGate?
    var defaults: [FlowOperationKind: FuzzGate] = [:]
    var asyncDefaults: [FlowOperationKind: FuzzGate] = [:]
    var historyLimit = 200
    /// Entries recorded outside a transaction since the step began.
    var recorded: [ModelEntry] = []
    var transaction: ModelTransaction?

    init(root: FuzzRoute) {
        stacks = [ModelStack(id: nil, root: root, rootID: nil, path: [], style: .root, options: .init())]
    }

    /// The stack identities, root first (all known between requests).
    var ids: [UUID] { stacks.map { $0.id ?? FuzzTarget.missingID } }

    // MARK: Requests

    /// A synchronous request through the public API: the one-off `condition` or the defaults,
    /// the guard, then the rules (decisions from `script`).
    mutating func perform(
        _ command: FlowCommand<FuzzRoute>, source: FlowOperationSource, condition: FuzzGate?, script: inout FuzzScript
    ) -> ModelResult {
        let entriesBefore = transaction?.entries.count ?? 0
        let result = run(command, source: source, condition: condition, script: &script, chain: 0)
        note(result, entriesBefore: entriesBefore)
        return result
    }

    private mutating func run(
        _ command: FlowCommand<FuzzRoute>, source: FlowOperationSource, condition: FuzzGate?,
        script: inout FuzzScript, chain: Int
    ) -> ModelResult {
        if transaction?.failedIndex != nil { return ModelResult(status: .rolledBack) }
        if let refusal = validate(command) { return record(refusal, source) }
        if source != .user {
            if let refusal = swiftChecks(command, condition: condition) { return record(refusal, source) }
            if rulesInstalled {
                switch script.take() {
                case .allow, .allowAfterFailure, .reenter:
                    break
                case .block(let stage):
                    return record(Self.outcome(of: stage), source)
                case .redirect(let op):
                    guard let target = op.ruleCommand(ids) else { break }
                    if chain + 1 > FuzzRouter.maximumRedirects { return record(.failed, source) }
                    _ = record(.redirected, source)
                    if transaction != nil { return ModelResult(status: .redirected) }
                    let followed = run(target, source: source, condition: nil, script: &script, chain: chain + 1)
                    return ModelResult(status: .redirected, redirectApplied: followed.changedStacks)
                }
            }
        }
        mutate(command)
        return record(.applied, source)
    }

    /// An async request: the async `condition` (during which `interleave` runs, once), or the
    /// sync defaults, the guard and the async defaults; the rules; a second validation.
    mutating func performAsync(
        _ command: FlowCommand<FuzzRoute>, condition: FuzzGate?, script: inout FuzzScript,
        interleave: @escaping (inout FuzzModel) -> Void
    ) -> ModelResult {
        var interleave: ((inout FuzzModel) -> Void)? = interleave
        return runAsync(command, condition: condition, script: &script, chain: 0, interleave: &interleave)
    }

    private mutating func runAsync(
        _ command: FlowCommand<FuzzRoute>, condition: FuzzGate?, script: inout FuzzScript, chain: Int,
        interleave: inout ((inout FuzzModel) -> Void)?
    ) -> ModelResult {
        if let refusal = validate(command) { return record(refusal, .code) }
        if let condition {
            for operation in command.operations {
                if let pending = interleave {
                    interleave = nil
                    pending(&self)
                }
                if !condition.allows(operation) { return record(.blockedByPrecondition, .code) }
            }
            if let guardGate, !command.operations.allSatisfy(guardGate.allows) { return record(.blockedByGuard, .code) }
        } else {
            if let refusal = swiftChecks(command, condition: nil) { return record(refusal, .code) }
            if let gate = asyncDefaults[command.operation.kind], !command.operations.allSatisfy(gate.allows) {
                return record(.blockedByPrecondition, .code)
            }
        }
        if rulesInstalled {
            switch script.take() {
            case .allow, .allowAfterFailure, .reenter:
                break
            case .block(let stage):
                return record(Self.outcome(of: stage), .code)
            case .redirect(let op):
                guard let target = op.ruleCommand(ids) else { break }
                if chain + 1 > FuzzRouter.maximumRedirects { return record(.failed, .code) }
                _ = record(.redirected, .code)
                var none: ((inout FuzzModel) -> Void)?
                let followed = runAsync(target, condition: nil, script: &script, chain: chain + 1, interleave: &none)
                return ModelResult(status: .redirected, redirectApplied: followed.changedStacks)
            }
        }
        if let refusal = validate(command) { return record(refusal, .code) }
        mutate(command)
        return record(.applied, .code)
    }

    /// The one-off condition (or the default for the kind), then the guard.
    private func swiftChecks(_ command: FlowCommand<FuzzRoute>, condition: FuzzGate?) -> FlowOperationStatus? {
        let operations = command.operations
        if let condition {
            if !operations.allSatisfy(condition.allows) { return .blockedByPrecondition }
        } else if let gate = defaults[command.operation.kind], !operations.allSatisfy(gate.allows) {
            return .blockedByPrecondition
        }
        if let guardGate, !operations.allSatisfy(guardGate.allows) { return .blockedByGuard }
        return nil
    }

    static func outcome(of stage: FlowRuleStage) -> FlowOperationStatus {
        switch stage {
        case .precondition: .blockedByPrecondition
        case .guard: .blockedByGuard
        case .error: .failed
        }
    }

    mutating func record(_ status: FlowOperationStatus, _ source: FlowOperationSource) -> ModelResult {
        let entry = ModelEntry(status: status, source: source)
        if transaction != nil { transaction!.entries.append(entry) } else { recorded.append(entry) }
        return ModelResult(status: status)
    }

    private mutating func note(_ result: ModelResult, entriesBefore: Int) {
        guard transaction != nil else { return }
        transaction!.steps += 1
        guard transaction!.failedIndex == nil else { return }
        switch result.status {
        case .applied, .nothingToPop, .nothingToDismiss, .ignored, .rolledBack:
            break
        default:
            transaction!.failedIndex = transaction!.steps - 1
            transaction!.failedEntry = transaction!.entries[entriesBefore]
        }
    }

    // MARK: Validation and mutation

    private func index(_ target: FlowStackTarget) -> Int? {
        switch target {
        case .root: 0
        case .active: stacks.count - 1
        case .stack(let id): stacks.firstIndex { $0.id == id }
        }
    }

    /// Why a command cannot run now, or `nil`.
    func validate(_ command: FlowCommand<FuzzRoute>) -> FlowOperationStatus? {
        let operation = command.operation
        var position = 0
        if let target = operation.target {
            guard let found = index(target) else { return .stackNotFound }
            position = found
        }
        let path = stacks[position].path
        switch operation {
        case .pop(let count, _):
            return count > 0 && position == 0 && path.isEmpty ? .nothingToPop : nil
        case .popToRoot:
            return path.isEmpty ? .nothingToPop : nil
        case .popTo(let route, _, _):
            return path.contains { $0.route == route } ? nil : .routeNotFound
        case .present(_, let style):
            return style == .root ? .failed : nil
        case .dismiss:
            return position == 0 ? .nothingToDismiss : nil
        case .dismissAll:
            return stacks.count == 1 ? .nothingToDismiss : nil
        case .setRoot, .push, .pushRemovingPrevious, .replaceCurrent, .replacePath:
            return nil
        }
    }

    /// Applies a validated command.
    mutating func mutate(_ command: FlowCommand<FuzzRoute>) {
        let fresh = { (routes: [FuzzRoute]) in routes.map { ModelNode(route: $0, id: nil) } }
        switch command.operation {
        case .setRoot(let route):
            if !command.refreshIfSameRoute, stacks[0].root == route {
                // Same route, no refresh: the root stack keeps its identities and shared screens.
                stacks.removeSubrange(1...)
                let old = stacks[0].path
                var shared = 0
                while shared < min(old.count, command.path.count), old[shared].route == command.path[shared] { shared += 1 }
                stacks[0].path = Array(old.prefix(shared)) + fresh(Array(command.path[shared...]))
                return
            }
            if command.refreshIfSameRoute, stacks[0].root == route { rootID = nil }
            stacks = [ModelStack(id: nil, root: route, rootID: nil, path: fresh(command.path), style: .root, options: .init())]
        case .push(_, let target):
            stacks[index(target)!].path += fresh(command.routes)
        case .pushRemovingPrevious(let route, let target), .replaceCurrent(let route, let target):
            let position = index(target)!
            if stacks[position].path.isEmpty {
                stacks[position].root = route
                stacks[position].rootID = nil
            } else {
                stacks[position].path[stacks[position].path.count - 1] = ModelNode(route: route, id: nil)
            }
        case .replacePath(let root, let path, let target):
            let position = index(target)!
            if !command.refreshIfSameRoute, stacks[position].root == root {
                // A gesture's new path keeps the root and the screens it shares with the old path.
                let old = stacks[position].path
                var shared = 0
                while shared < min(old.count, path.count), old[shared].route == path[shared] { shared += 1 }
                stacks[position].path = Array(old.prefix(shared)) + fresh(Array(path[shared...]))
            } else {
                stacks[position].root = root
                stacks[position].rootID = nil
                stacks[position].path = fresh(path)
            }
        case .pop(let count, let target):
            let position = index(target)!
            let removable = min(count, stacks[position].path.count)
            stacks[position].path.removeLast(removable)
            if removable < count, position > 0 { dismiss(at: position) }
        case .popToRoot(let target):
            stacks[index(target)!].path = []
        case .popTo(let route, let match, let target):
            let position = index(target)!
            let found = stacks[position].path.lastIndex { $0.route == route }!
            stacks[position].path.removeSubrange((match == .inclusive ? found : found + 1)...)
        case .present(let route, let style):
            stacks.append(ModelStack(id: nil, root: route, rootID: nil, path: fresh(command.path), style: style, options: command.options))
        case .dismiss(let target):
            dismiss(at: index(target)!)
        case .dismissAll:
            stacks.removeSubrange(1...)
        }
    }

    private mutating func dismiss(at position: Int) {
        if stacks[position].options.clearsNestedPresentationOnDismiss {
            stacks.removeSubrange(position...)
        } else {
            stacks.remove(at: position)
        }
    }
}
