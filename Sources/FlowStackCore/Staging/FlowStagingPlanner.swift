import Foundation

/// One step of a staged transition: the stacks to show, and what changed to get there.
package struct FlowStagingStep<Route: Hashable>: Hashable {
    /// What a step changes; SwiftUI accepts one of these per update.
    package enum Kind: String, Hashable, Sendable {
        /// The root stack itself was replaced; nothing is presented when it happens (the
        /// presentations were dismissed by earlier steps).
        case replaceRoot
        /// Presented stacks were removed from the top: one per step in the conservative plan,
        /// several when `FlowStagingOptions.allowsMultipleDismissals` is set.
        case dismiss
        /// Stacks kept their presentation; their roots and paths changed.
        case updatePaths
        /// One stack was presented on top, with its whole path.
        case present
    }

    /// What the step changes.
    package let kind: Kind
    /// The stacks shown after the step.
    package let stacks: [FlowStackState<Route>]
}

/// Plans how the UI gets from the state it shows to the router's state in steps SwiftUI accepts.
///
/// SwiftUI applies at most one presentation change per update, a view that is torn down while it
/// still presents leaves the presentation behind, and dismissing and pushing in the same update
/// misbehaves. So when the router's state jumps (state restoration, `setRoot` with
/// presentations, a transaction, a deep link), the UI plays these steps one per update:
/// dismissals first, front-most first, one presented stack per step (several in one step only
/// with `FlowStagingOptions.allowsMultipleDismissals`); then the root replacement, if the root
/// stack changed, once nothing is presented; then path changes of the stacks that stay (all
/// pushes and pops within a stack merged into one step); then one presentation per step.
package enum FlowStagingPlanner {
    /// The steps from `shown` to `target`; empty when they are equal. The last step's stacks
    /// equal `target`.
    package static func plan<Route: Hashable>(
        from shown: [FlowStackState<Route>],
        to target: [FlowStackState<Route>],
        options: FlowStagingOptions = .conservative
    ) -> [FlowStagingStep<Route>] {
        guard shown != target, let targetRoot = target.first else { return [] }
        var steps: [FlowStagingStep<Route>] = []
        var current = shown
        let kept = commonPrefixCount(shown, target)
        // A new root replaces the old one only once the old one presents nothing.
        let staying = max(kept, 1)
        if current.count > staying {
            if options.allowsMultipleDismissals {
                current.removeSubrange(staying...)
                steps.append(FlowStagingStep(kind: .dismiss, stacks: current))
            } else {
                while current.count > staying {
                    current.removeLast()
                    steps.append(FlowStagingStep(kind: .dismiss, stacks: current))
                }
            }
        }
        if kept == 0 {
            current = [targetRoot]
            steps.append(FlowStagingStep(kind: .replaceRoot, stacks: current))
        } else {
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

    /// Whether SwiftUI can go from `before` to `after` in one update: a root replacement while
    /// nothing is presented, a dismissal from the top (of one presented stack unless `options`
    /// allow several), path changes only, or exactly one new presentation.
    package static func isSingleUpdate<Route: Hashable>(
        from before: [FlowStackState<Route>],
        to after: [FlowStackState<Route>],
        options: FlowStagingOptions = .conservative
    ) -> Bool {
        guard let newRoot = after.first else { return false }
        if before == after { return true }
        if before.first?.id != newRoot.id { return after.count == 1 && before.count <= 1 }
        let kept = commonPrefixCount(before, after)
        if after.count < before.count {
            let removed = before.count - after.count
            return (removed == 1 || options.allowsMultipleDismissals)
                && kept == after.count && zip(before, after).allSatisfy { $0 == $1 }
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
    package func stagingPlan(
        from shown: [FlowStackState<Route>],
        options: FlowStagingOptions = .conservative
    ) -> [FlowStagingStep<Route>] {
        FlowStagingPlanner.plan(from: shown, to: stacks, options: options)
    }
}
