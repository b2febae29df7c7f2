import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

private enum Screen: Hashable { case home, list, detail(Int), sheet(Int), cover(Int) }


@MainActor
private func randomStep(_ router: FlowRouter<Screen, String>, _ rng: inout SeededRandom) {
    let n = Int.random(in: 0..<100, using: &rng)
    switch Int.random(in: 0..<9, using: &rng) {
    case 0: router.push(.detail(n))
    case 1: router.push(contentsOf: [.list, .detail(n)])
    case 2: router.pop(count: Int.random(in: 1...3, using: &rng))
    case 3: router.sheet(.sheet(n), path: n % 2 == 0 ? [.list] : [])
    case 4: router.fullScreenCover(.cover(n))
    case 5: router.dismiss()
    case 6: router.setRoot(.home, path: n % 3 == 0 ? [.list] : [])
    case 7: router.replaceCurrent(with: .detail(n))
    default: router.popToRoot()
    }
}

@MainActor
struct StagingPlannerTests {
    private func makeStates(seed: UInt64, count: Int) -> [[FlowStackState<Screen>]] {
        var rng = SeededRandom(seed: seed)
        let router = FlowRouter<Screen, String>(root: .home)
        var states: [[FlowStackState<Screen>]] = [router.stacks]
        for _ in 0..<count {
            for _ in 0..<Int.random(in: 1...4, using: &rng) { randomStep(router, &rng) }
            states.append(router.stacks)
        }
        return states
    }

    @Test func equalStatesNeedNoSteps() {
        let router = FlowRouter<Screen, String>(root: .home)
        router.sheet(.sheet(1))
        #expect(FlowStagingPlanner.plan(from: router.stacks, to: router.stacks).isEmpty)
    }

    @Test func dismissalsComeFirstThenPathsThenOnePresentationPerStep() {
        let router = FlowRouter<Screen, String>(root: .home)
        router.sheet(.sheet(1))
        router.fullScreenCover(.cover(1))
        let shown = router.stacks
        router.dismissAll()
        router.push(contentsOf: [.list, .detail(1), .detail(2)])
        router.sheet(.sheet(2), path: [.list])
        router.fullScreenCover(.cover(2))
        let steps = FlowStagingPlanner.plan(from: shown, to: router.stacks)
        #expect(steps.map(\.kind) == [.dismiss, .dismiss, .updatePaths, .present, .present])
        #expect(steps[0].stacks.count == 2, "the front-most presentation goes first, alone")
        #expect(steps[1].stacks.count == 1 && steps[1].stacks[0].path.isEmpty)
        #expect(steps[2].stacks[0].path == [.list, .detail(1), .detail(2)])
        #expect(steps[3].stacks.last?.path == [.list])
        #expect(steps.last?.stacks == router.stacks)
    }

    @Test func aNewRootComesOnlyOnceNothingIsPresentedThenPresents() {
        let router = FlowRouter<Screen, String>(root: .home)
        router.sheet(.sheet(1))
        router.sheet(.sheet(3))
        let shown = router.stacks
        router.setRoot(.home, path: [.list])
        router.sheet(.sheet(2))
        let steps = FlowStagingPlanner.plan(from: shown, to: router.stacks)
        #expect(steps.map(\.kind) == [.dismiss, .dismiss, .replaceRoot, .present])
        #expect(steps[1].stacks == [shown[0]], "the old root presents nothing when it goes")
        #expect(steps[2].stacks == [router.stacks[0]])
        let multiple = FlowStagingPlanner.plan(from: shown, to: router.stacks, options: FlowStagingOptions(allowsMultipleDismissals: true))
        #expect(multiple.map(\.kind) == [.dismiss, .replaceRoot, .present])
        #expect(multiple[0].stacks == [shown[0]])
    }

    @Test func restoringADeepStateFromLaunchPresentsOneStackPerStep() throws {
        let router = FlowRouter<Screen, String>(root: .home, path: [.list])
        router.sheet(.sheet(1), path: [.detail(1)])
        router.fullScreenCover(.cover(1))
        router.sheet(.sheet(2))
        let saved = router.state
        let fresh = FlowRouter<Screen, String>(root: .home)
        let launch = fresh.stacks
        try fresh.restore(saved)
        let steps = fresh.stagingPlan(from: launch)
        #expect(steps.map(\.kind) == [.replaceRoot, .present, .present, .present])
        #expect(steps.last?.stacks == saved.stacks)
    }

    @Test func isSingleUpdateRejectsTwoPresentationsOrDismissWithPush() {
        let router = FlowRouter<Screen, String>(root: .home)
        let base = router.stacks
        router.sheet(.sheet(1))
        router.fullScreenCover(.cover(1))
        #expect(!FlowStagingPlanner.isSingleUpdate(from: base, to: router.stacks))
        let two = router.stacks
        router.dismissAll()
        router.push(.list)
        #expect(!FlowStagingPlanner.isSingleUpdate(from: two, to: router.stacks))
    }

    @Test(arguments: [UInt64(1), 7, 42, 1_234, 99_999])
    func randomPairsAreReachedInValidSteps(seed: UInt64) {
        let states = makeStates(seed: seed, count: 40)
        var pairs = 0
        for from in states {
            for to in states {
                let steps = FlowStagingPlanner.plan(from: from, to: to)
                var current = from
                for step in steps {
                    #expect(FlowStagingPlanner.isSingleUpdate(from: current, to: step.stacks),
                            "seed \(seed): step \(step.kind) is not one SwiftUI update")
                    current = step.stacks
                }
                #expect(current == to, "seed \(seed): the last step does not equal the target")
                let presents = steps.filter { $0.kind == .present }.count
                #expect(presents <= max(0, to.count - 1))
                pairs += 1
            }
        }
        #expect(pairs == states.count * states.count)
    }
}
