import Foundation

/// One step of a staged transition: the stacks to show, and what changed to get there.
public struct FlowStagingStep<Route: Hashable>: Hashable {
    /// What a step changes; SwiftUI accepts one of these per update.
    public enum Kind: String, Hashable, Sendable {
        /// The root stack itself was replaced (every presentation goes with it).
        case replaceRoot
        /// Presented stacks were removed from the top (one dismissal animates them all).
        case dismiss
        /// Stacks kept their presentation; their roots and paths changed.
        case updatePaths
        /// One stack was presented on top, with its whole path.
        case present
    }

    /// What the step changes.
    public let kind: Kind
    /// The stacks shown after the step.
    public let stacks: [FlowStackState<Route>]
}

/// Plans how the UI gets from the state it shows to the router's state in steps SwiftUI accepts.
///
/// SwiftUI applies at most one presentation change per update, and dismissing and pushing in the
/// same update misbehaves. So when the router's state jumps (state restoration, `setRoot` with
/// presentations, a transaction, a deep link), the UI plays these steps one per update, spaced
/// by the router's transition delay: dismissals first, then path changes of the stacks that stay
/// (all pushes and pops within a stack merged into one step), then one presentation per step.
public enum FlowStagingPlanner {
    /// The steps from `shown` to `target`; empty when they are equal. The last step's stacks
    /// equal `target`.
    public static func plan<Route: Hashable>(
        from shown: [FlowStackState<Route>],
        to target: [FlowStackState<Route>]
    ) -> [FlowStagingStep<Route>] {
        guard shown != target, let targetRoot = target.first else { return [] }
        var steps: [FlowStagingStep<Route>] = []
        var current = shown
        let kept = commonPrefixCount(shown, target)
        if kept == 0 {
            current = [targetRoot]
            steps.append(FlowStagingStep(kind: .replaceRoot, stacks: current))
        } else {
            if current.count > kept {
                current.removeSubrange(kept...)
                steps.append(FlowStagingStep(kind: .dismiss, stacks: current))
            }
            let updated = Array(target.prefix(kept))
            if current != updated {
                current = updated
                steps.append(FlowStagingStep(kind: .updatePaths, stacks: current))
            }
        }
        for stack in target.dropFirst(current.count) {
            current.append(stack)
            steps.append(FlowStagingStep(kind: .present, stacks: current))
        }
        return steps
    }

    /// Whether SwiftUI can go from `before` to `after` in one update: a root replacement, a
    /// dismissal from the top, path changes only, or exactly one new presentation.
    public static func isSingleUpdate<Route: Hashable>(
        from before: [FlowStackState<Route>],
        to after: [FlowStackState<Route>]
    ) -> Bool {
        guard let newRoot = after.first else { return false }
        if before == after { return true }
        if before.first?.id != newRoot.id { return after.count == 1 }
        let kept = commonPrefixCount(before, after)
        if after.count < before.count {
            return kept == after.count && zip(before, after).allSatisfy { $0 == $1 }
        }
        if after.count == before.count {
            return kept == after.count
        }
        return after.count == before.count + 1 && kept == before.count
            && zip(before, after).allSatisfy { $0 == $1 }
    }

    /// The number of leading stacks with the same identities in both lists.
    static func commonPrefixCount<Route: Hashable>(_ a: [FlowStackState<Route>], _ b: [FlowStackState<Route>]) -> Int {
        var count = 0
        while count < a.count, count < b.count, a[count].id == b[count].id, a[count].style == b[count].style {
            count += 1
        }
        return count
    }
}

extension FlowRouter {
    /// The steps that take a UI showing `shown` to the router's current stacks.
    public func stagingPlan(from shown: [FlowStackState<Route>]) -> [FlowStagingStep<Route>] {
        FlowStagingPlanner.plan(from: shown, to: stacks)
    }
}
