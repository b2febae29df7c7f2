import FlowStackCore
import Foundation

/// The fuzzer's routes: few, so `popTo` and route-blocking gates hit often.
enum FuzzRoute: String, Hashable, Codable, CaseIterable, FlowRouteConvertible {
    case home, a, b, c, d, login
}

/// The router under test.
typealias FuzzRouter = FlowRouter<FuzzRoute, String>

/// A stack a step names, resolved against the stacks when the step runs.
enum FuzzTarget: Hashable, CustomStringConvertible {
    case root, active
    /// The stack at this index, modulo the number of stacks.
    case stack(Int)
    /// An identity no stack has.
    case missing

    /// The identity `missing` resolves to.
    static let missingID = UUID(uuidString: "DEADBEEF-0000-4000-8000-000000000000")!

    /// The router target this names among stacks with these identities (root first).
    func resolve(_ ids: [UUID]) -> FlowStackTarget {
        switch self {
        case .root: .root
        case .active: .active
        case .stack(let index): .stack(ids[index % ids.count])
        case .missing: .stack(Self.missingID)
        }
    }

    /// The identity of the stack this names (for user gestures, which take identities).
    func stackID(_ ids: [UUID]) -> UUID {
        switch self {
        case .root: ids[0]
        case .active: ids[ids.count - 1]
        case .stack(let index): ids[index % ids.count]
        case .missing: Self.missingID
        }
    }

    var description: String {
        switch self {
        case .root: "root"
        case .active: "active"
        case .stack(let index): "stack#\(index)"
        case .missing: "missing-stack"
        }
    }
}

/// A precondition, guard or condition: lets everything, nothing, or everything but one route.
enum FuzzGate: Hashable, CustomStringConvertible {
    case pass, fail
    /// Blocks operations that navigate to this route.
    case blockRoute(FuzzRoute)

    /// Whether the gate lets `operation` through.
    func allows(_ operation: FlowOperation<FuzzRoute>) -> Bool {
        switch self {
        case .pass: true
        case .fail: false
        case .blockRoute(let route): !operation.routes.contains(route)
        }
    }

    /// The gate as a router guard.
    @MainActor var asGuard: FuzzRouter.Guard {
        { operation in allows(operation) }
    }

    /// The gate as a precondition.
    @MainActor var asPrecondition: FuzzRouter.Precondition {
        { operation, _ in allows(operation) }
    }

    /// The gate as an async precondition that suspends before deciding.
    @MainActor var asAsyncPrecondition: FuzzRouter.AsyncPrecondition {
        { operation, _ in
            await Task.yield()
            return allows(operation)
        }
    }

    var description: String {
        switch self {
        case .pass: "pass"
        case .fail: "fail"
        case .blockRoute(let route): "block(\(route))"
        }
    }
}

/// One scripted decision of the test rules hook.
indirect enum FuzzDecision: Hashable, CustomStringConvertible {
    case allow
    case allowAfterFailure
    case block(FlowRuleStage)
    case redirect(FuzzOp)
    /// Tries to navigate from inside the decision (must be refused), then allows.
    case reenter

    var description: String {
        switch self {
        case .allow: "allow"
        case .allowAfterFailure: "allowAfterFailure"
        case .block(let stage): "block(\(stage.rawValue))"
        case .redirect(let op): "redirect(\(op))"
        case .reenter: "reenter"
        }
    }
}

/// The decisions of one request's rules, consumed in order; `allow` once exhausted.
struct FuzzScript {
    var decisions: [FuzzDecision]
    var next = 0

    init(_ decisions: [FuzzDecision]) {
        self.decisions = decisions
    }

    mutating func take() -> FuzzDecision {
        defer { next += 1 }
        return next < decisions.count ? decisions[next] : .allow
    }
}

/// How `userDidChangePath` changes a stack's path, relative to the path when the step runs.
enum FuzzPathEdit: Hashable, CustomStringConvertible {
    /// Drops this many screens from the top (a back swipe).
    case drop(Int)
    /// Appends screens (a navigation link).
    case extend([FuzzRoute])
    /// Replaces the whole path.
    case replace([FuzzRoute])

    /// The new path for a stack showing `current`.
    func apply(to current: [FuzzRoute]) -> [FuzzRoute] {
        switch self {
        case .drop(let count): Array(current.dropLast(count))
        case .extend(let routes): current + routes
        case .replace(let routes): routes
        }
    }

    var description: String {
        switch self {
        case .drop(let count): "drop \(count)"
        case .extend(let routes): "extend by \(routes.map(\.rawValue))"
        case .replace(let routes): "replace with \(routes.map(\.rawValue))"
        }
    }
}

/// A sync action run from inside an async action's condition, while the async action waits.
struct FuzzInterleave: Hashable {
    var op: FuzzOp
    var rules: [FuzzDecision]
}

/// One step of a fuzzed sequence.
indirect enum FuzzStep: Hashable, CustomStringConvertible {
    case action(FuzzOp, condition: FuzzGate?, rules: [FuzzDecision])
    case asyncAction(FuzzOp, condition: FuzzGate?, rules: [FuzzDecision], interleave: FuzzInterleave?)
    /// A sync action run as one turn of the async queue (`queued(_:)`).
    case queued(FuzzOp, rules: [FuzzDecision])
    case showDialog(String, FlowDialogPolicy)
    case hideDialog(byUser: Bool)
    case clearDialogs
    case transaction([FuzzStep], throwing: Bool)
    case userPop
    case userPopTo(depth: Int, FuzzTarget)
    case userDismiss(FuzzTarget?)
    case userChangePath(FuzzPathEdit, FuzzTarget)
    case setGuard(FuzzGate?)
    case setDefault(FlowOperationKind, FuzzGate?)
    case setAsyncDefault(FlowOperationKind, FuzzGate?)
    case clearDefaults
    case setRules(Bool)
    case setHistoryLimit(Int)
    case clearHistory
    case restoreRoundTrip

    var description: String {
        lines(indent: "").joined(separator: "\n")
    }

    /// Readable lines, transactions indented.
    func lines(indent: String) -> [String] {
        func extras(_ condition: FuzzGate?, _ rules: [FuzzDecision]) -> String {
            var parts: [String] = []
            if let condition { parts.append("condition: \(condition)") }
            if !rules.isEmpty { parts.append("rules: [" + rules.map(\.description).joined(separator: ", ") + "]") }
            return parts.isEmpty ? "" : "  // " + parts.joined(separator: "; ")
        }
        switch self {
        case .action(let op, let condition, let rules):
            return [indent + "\(op)" + extras(condition, rules)]
        case .asyncAction(let op, let condition, let rules, let interleave):
            var line = indent + "await \(op)" + extras(condition, rules)
            if let interleave {
                line += "  // while waiting: \(interleave.op)" + extras(nil, interleave.rules).replacingOccurrences(of: "  // ", with: " ")
            }
            return [line]
        case .queued(let op, let rules):
            return [indent + "await queued { \(op) }" + extras(nil, rules)]
        case .showDialog(let dialog, let policy): return [indent + "showGlobalDialog(\"\(dialog)\", policy: .\(policy.rawValue))"]
        case .hideDialog(let byUser): return [indent + (byUser ? "userDidHideGlobalDialog()" : "hideGlobalDialog()")]
        case .clearDialogs: return [indent + "clearGlobalDialogs()"]
        case .transaction(let steps, let throwing):
            return [indent + "transaction {" + (throwing ? "  // throws at the end" : "")]
                + steps.flatMap { $0.lines(indent: indent + "    ") } + [indent + "}"]
        case .userPop: return [indent + "userDidPop()"]
        case .userPopTo(let depth, let target): return [indent + "userDidPop(toDepth: \(depth), in: \(target))"]
        case .userDismiss(let target): return [indent + (target.map { "userDidDismiss(stackID: \($0))" } ?? "userDidDismiss()")]
        case .userChangePath(let edit, let target): return [indent + "userDidChangePath(\(edit), in: \(target))"]
        case .setGuard(let gate): return [indent + "guardOperation = \(gate.map(\.description) ?? "nil")"]
        case .setDefault(let kind, let gate): return [indent + "setDefaultPrecondition(for: .\(kind.rawValue), \(gate.map(\.description) ?? "nil"))"]
        case .setAsyncDefault(let kind, let gate):
            return [indent + "setDefaultAsyncPrecondition(for: .\(kind.rawValue), \(gate.map(\.description) ?? "nil"))"]
        case .clearDefaults: return [indent + "clearDefaultPreconditions()"]
        case .setRules(let on): return [indent + (on ? "installRules(hook)" : "removeRules()")]
        case .setHistoryLimit(let limit): return [indent + "maximumOperationHistoryCount = \(limit)"]
        case .clearHistory: return [indent + "clearOperationHistory()"]
        case .restoreRoundTrip: return [indent + "restore(JSON round trip of state)"]
        }
    }
}
