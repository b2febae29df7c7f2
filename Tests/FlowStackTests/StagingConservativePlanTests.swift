import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

private enum Screen: Hashable { case home, list, detail(Int), sheet(Int), cover(Int) }


/// How many presented stacks went and came between two lists of stacks (by identity; a new root
/// counts the old presentations as gone).
private func presentationChanges(from before: [FlowStackState<Screen>], to after: [FlowStackState<Screen>]) -> (removed: Int, added: Int) {
    let beforeIDs = Set(before.dropFirst().map(\.id))
    let afterIDs = Set(after.dropFirst().map(\.id))
    return (beforeIDs.subtracting(afterIDs).count, afterIDs.subtracting(beforeIDs).count)
}

/// The conservative plan (every system's default) and the one with several dismissals at once
/// (what the SwiftUI host asks for on iOS 17+, macOS 14+).
@MainActor
struct StagingConservativePlanTests {
    @Test func signOutFromANestedSheetDismissesOneLayerPerStepBeforeTheNewRoot() {
        let router = FlowRouter<Screen, String>(root: .home, path: [.list])
        router.sheet(.sheet(1))
        router.sheet(.sheet(2), path: [.detail(1)])
        router.fullScreenCover(.cover(1))
        let shown = router.stacks
        router.setRoot(.list)
        let steps = FlowStagingPlanner.plan(from: shown, to: router.stacks)
        #expect(steps.map(\.kind) == [.dismiss, .dismiss, .dismiss, .replaceRoot])
        #expect(steps.map(\.stacks.count) == [3, 2, 1, 1])
        #expect(steps[2].stacks == [shown[0]], "the old root is still there, presenting nothing")
        #expect(steps.last?.stacks == router.stacks)
        for (before, step) in zip([shown] + steps.map(\.stacks), steps) {
            #expect(step.completion == (step.kind == .replaceRoot
                ? .appearance(of: router.stacks[0].id) : .dismissal(presentedBy: step.stacks.last!.id)))
            #expect(FlowStagingPlanner.isSingleUpdate(from: before, to: step.stacks))
        }
    }

    @Test func severalDismissalsInOneStepOnlyWhenTheOptionsAllowThem() {
        let router = FlowRouter<Screen, String>(root: .home)
        router.sheet(.sheet(1))
        router.sheet(.sheet(2))
        let shown = router.stacks
        router.dismissAll()
        let options = FlowStagingOptions(allowsMultipleDismissals: true)
        #expect(FlowStagingPlanner.plan(from: shown, to: router.stacks).map(\.kind) == [.dismiss, .dismiss])
        #expect(FlowStagingPlanner.plan(from: shown, to: router.stacks, options: options).map(\.kind) == [.dismiss])
        #expect(!FlowStagingPlanner.isSingleUpdate(from: shown, to: router.stacks))
        #expect(FlowStagingPlanner.isSingleUpdate(from: shown, to: router.stacks, options: options))
        #expect(router.stagingPlan(from: shown, options: options).count == 1)
        #expect(FlowStagingOptions() == .conservative && !FlowStagingOptions.conservative.allowsMultipleDismissals)
    }

    @Test func aRootReplacementWhilePresentingIsNeverOneUpdate() {
        let router = FlowRouter<Screen, String>(root: .home)
        router.sheet(.sheet(1))
        let shown = router.stacks
        router.setRoot(.list)
        let options = FlowStagingOptions(allowsMultipleDismissals: true)
        #expect(!FlowStagingPlanner.isSingleUpdate(from: shown, to: router.stacks))
        #expect(!FlowStagingPlanner.isSingleUpdate(from: shown, to: router.stacks, options: options))
        #expect(FlowStagingPlanner.isSingleUpdate(from: [shown[0]], to: router.stacks))
    }

    /// The property: between any two states, the conservative plan never removes or adds more
    /// than one presentation per step, replaces the root only when nothing is presented, and
    /// ends at the target; with several dismissals allowed it still adds at most one per step.
    @Test(arguments: [UInt64(5), 23, 311, 8_191, 65_537])
    func randomPairsChangeAtMostOnePresentationPerStep(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let router = FlowRouter<Screen, String>(root: .home)
        var states: [[FlowStackState<Screen>]] = [router.stacks]
        for _ in 0..<30 {
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let n = Int.random(in: 0..<50, using: &rng)
                switch Int.random(in: 0..<8, using: &rng) {
                case 0: router.push(.detail(n))
                case 1, 2: router.sheet(.sheet(n), path: n % 2 == 0 ? [.list] : [])
                case 3: router.fullScreenCover(.cover(n))
                case 4: router.dismiss()
                case 5: router.setRoot(n % 2 == 0 ? .home : .list, path: n % 3 == 0 ? [.list] : [], refreshIfSameRoute: n % 4 != 0)
                case 6: router.dismissAll()
                default: router.pop()
                }
            }
            states.append(router.stacks)
        }
        let multiple = FlowStagingOptions(allowsMultipleDismissals: true)
        for from in states {
            for to in states {
                for options in [FlowStagingOptions.conservative, multiple] {
                    var current = from
                    for step in FlowStagingPlanner.plan(from: from, to: to, options: options) {
                        let change = presentationChanges(from: current, to: step.stacks)
                        #expect(change.added <= 1, "seed \(seed): a step adds \(change.added) presentations")
                        if !options.allowsMultipleDismissals {
                            #expect(change.removed <= 1, "seed \(seed): a step removes \(change.removed) presentations")
                        }
                        #expect(change.removed == 0 || change.added == 0, "seed \(seed): a step removes and adds")
                        if step.kind == .replaceRoot {
                            #expect(current.count == 1, "seed \(seed): the root is replaced while it presents")
                        }
                        #expect(FlowStagingPlanner.isSingleUpdate(from: current, to: step.stacks, options: options))
                        current = step.stacks
                    }
                    #expect(current == to, "seed \(seed): the plan does not end at the target")
                }
            }
        }
    }
}
