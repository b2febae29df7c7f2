import FlowStackCore
import FlowStackTestSupport
import Foundation

/// Generates random step sequences from a seed, mixing every action, dialogs, transactions,
/// user gestures, rules decisions, conditions and configuration changes.
struct FuzzGenerator {
    var random: SeededRandom

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    /// A sequence of `length` top-level steps; `async` mixes in async actions.
    mutating func sequence(length: Int, async: Bool) -> [FuzzStep] {
        (0..<length).map { _ in step(async: async, depth: 0) }
    }

    mutating func step(async: Bool, depth: Int) -> FuzzStep {
        // action, async action, dialog, transaction, gesture, configuration, restore
        let weights = [46, async ? 40 : 0, 12, depth < 2 ? 9 : 0, 13, depth == 0 ? 10 : 0, depth == 0 ? 2 : 0]
        switch random.weighted(weights) {
        case 0:
            return .action(op(), condition: condition(), rules: rules())
        case 1:
            if random.chance(10) { return .queued(op(), rules: rules()) }
            let condition = random.chance(60) ? condition() ?? .pass : nil
            let interleave = condition != nil && random.chance(35) ? FuzzInterleave(op: op(), rules: rules()) : nil
            return .asyncAction(op(), condition: condition, rules: rules(), interleave: interleave)
        case 2:
            switch random.weighted([8, 3, 1]) {
            case 0: return .showDialog("d\(random.below(4))", random.pick(FlowDialogPolicy.allCases))
            case 1: return .hideDialog(byUser: random.chance(30))
            default: return .clearDialogs
            }
        case 3:
            let count = random.int(in: 1...4)
            return .transaction((0..<count).map { _ in step(async: false, depth: depth + 1) }, throwing: random.chance(10))
        case 4:
            switch random.below(4) {
            case 0: return .userPop
            case 1: return .userPopTo(depth: random.int(in: -1...3), target())
            case 2: return .userDismiss(random.chance(40) ? nil : target())
            default: return .userChangePath(pathEdit(), target())
            }
        case 5:
            return configuration(async: async)
        default:
            return .restoreRoundTrip
        }
    }

    private mutating func configuration(async: Bool) -> FuzzStep {
        switch random.weighted([3, 6, async ? 4 : 0, 1, 2, 2, 1]) {
        case 0: return .setGuard(random.chance(40) ? nil : gate())
        case 1: return .setDefault(random.pick(FlowOperationKind.allCases), random.chance(35) ? nil : gate())
        case 2: return .setAsyncDefault(random.pick(FlowOperationKind.allCases), random.chance(35) ? nil : gate())
        case 3: return .clearDefaults
        case 4: return .setRules(random.chance(70))
        case 5: return .setHistoryLimit(random.pick([0, 1, 3, 10, 200]))
        default: return .clearHistory
        }
    }

    /// A route, skewed towards a few so that `popTo` often finds its route in the path.
    mutating func route() -> FuzzRoute {
        FuzzRoute.allCases[random.weighted([3, 6, 4, 2, 1, 1])]
    }

    mutating func routes(_ range: ClosedRange<Int>) -> [FuzzRoute] {
        (0..<random.int(in: range)).map { _ in route() }
    }

    mutating func target() -> FuzzTarget {
        switch random.weighted([40, 25, 30, 5]) {
        case 0: .active
        case 1: .root
        case 2: .stack(random.below(4))
        default: .missing
        }
    }

    mutating func gate() -> FuzzGate {
        switch random.weighted([20, 20, 60]) {
        case 0: .pass
        case 1: .fail
        default: .blockRoute(route())
        }
    }

    mutating func condition() -> FuzzGate? {
        random.chance(70) ? nil : gate()
    }

    mutating func pathEdit() -> FuzzPathEdit {
        switch random.below(3) {
        case 0: .drop(random.int(in: 0...3))
        case 1: .extend(routes(0...2))
        default: .replace(routes(0...3))
        }
    }

    /// A navigation action; `forRedirect` avoids the calls that make no request.
    mutating func op(forRedirect: Bool = false) -> FuzzOp {
        switch random.weighted([4, 12, 6, 5, 5, 4, 10, 4, 7, 9, 7, 3]) {
        case 0:
            return .setRoot(route(), path: routes(0...3), refresh: random.chance(70))
        case 1:
            return .push(route(), target())
        case 2:
            return .pushMany(routes(forRedirect ? 1...3 : 0...3), target())
        case 3:
            return .pushRemovingPrevious(route(), target())
        case 4:
            return .replaceCurrent(route(), target())
        case 5:
            return .replacePath(route(), path: routes(0...3), target())
        case 6:
            return .pop(forRedirect ? random.int(in: 1...4) : random.int(in: -1...4), target())
        case 7:
            return .popToRoot(target())
        case 8:
            return .popTo(route(), random.chance(50) ? .exclusive : .inclusive, target())
        case 9:
            let style: FlowPresentationStyle = random.chance(3) ? .root : (random.chance(50) ? .sheet : .fullScreenCover)
            let options = FlowPresentationOptions(allowsInteractiveDismiss: random.chance(80), clearsNestedPresentationOnDismiss: random.chance(60))
            return .present(route(), style, path: routes(0...3), options)
        case 10:
            return .dismiss(target())
        default:
            return .dismissAll
        }
    }

    /// The rules' decisions for one request: usually none (allow), sometimes a chain, rarely a
    /// redirect loop longer than the router allows.
    mutating func rules() -> [FuzzDecision] {
        if random.chance(2) {
            return (0...FuzzRouter.maximumRedirects + 1).map { _ in .redirect(op(forRedirect: true)) }
        }
        guard random.chance(45) else { return [] }
        return (0..<random.int(in: 1...3)).map { _ in
            switch random.weighted([25, 10, 25, 32, 8]) {
            case 0: .allow
            case 1: .allowAfterFailure
            case 2: .block(random.pick([FlowRuleStage.precondition, .guard, .error]))
            case 3: .redirect(op(forRedirect: true))
            default: .reenter
            }
        }
    }
}
