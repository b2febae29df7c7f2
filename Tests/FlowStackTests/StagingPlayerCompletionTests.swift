import Foundation
import Testing
@testable import FlowStackCore

private enum Screen: Hashable { case home, list, detail(Int), sheet(Int), cover(Int) }

private let ms: UInt64 = 1_000_000
private let fallback = FlowStagingTiming.minimumCompletionFallbackNanoseconds

/// When steps advance: on their completion, or after the fallback. The clock is the test's own
/// numbers, and the driver below stands for the host: it sleeps what the player says unless a
/// completion comes first.
@MainActor
struct StagingPlayerCompletionTests {
    /// A fake host: a clock, and completions that SwiftUI would report at given times.
    fileprivate struct FakeDriver {
        var player: FlowStagingPlayer<Screen>
        var now: UInt64 = 0
        /// When each completion arrives, after its step ran (missing: it never arrives).
        var completionLatency: [FlowStagingCompletion: UInt64] = [:]
        /// The times at which steps ran.
        var stepTimes: [UInt64] = []

        /// Plays to the end the way `FlowStagingHost` does: wait what the player says, but wake
        /// at the awaited completion when it comes earlier.
        mutating func play() {
            while let delay = player.delayBeforeNextStep(now: now, configuredDelayNanoseconds: 0) {
                if let awaited = player.awaitedCompletion, let latency = completionLatency[awaited],
                   let last = player.lastStepTime, last + latency <= now + delay {
                    now = max(now, last + latency)
                    let accepted = player.didComplete(awaited)
                    #expect(accepted)
                    continue
                }
                now += delay
                player.advance(now: now)
                stepTimes.append(now)
            }
        }
    }

    @Test func aPresentationStepWaitsForItsStacksAppearanceNotAFixedDelay() throws {
        let router = FlowRouter<Screen, String>(root: .home)
        router.sheet(.sheet(1))
        router.sheet(.sheet(2))
        var player = FlowStagingPlayer(launching: router.stacks)
        let advanced = player.advance(now: 0)
        let first = try #require(advanced)
        #expect(first.completion == .appearance(of: router.stacks[1].id))
        #expect(player.awaitedCompletion == first.completion)
        #expect(player.delayBeforeNextStep(now: 0, configuredDelayNanoseconds: 0) == fallback)
        do {
            let accepted = player.didComplete(.appearance(of: router.stacks[2].id))
            #expect(!accepted, "another stack's appearance")
        }
        do {
            let accepted = player.didComplete(.dismissal(presentedBy: router.stacks[1].id))
            #expect(!accepted)
        }
        #expect(player.delayBeforeNextStep(now: 200 * ms, configuredDelayNanoseconds: 0) == fallback - 200 * ms)
        do {
            let accepted = player.didComplete(.appearance(of: router.stacks[1].id))
            #expect(accepted)
        }
        #expect(player.delayBeforeNextStep(now: 200 * ms, configuredDelayNanoseconds: 0) == 0, "runs on completion")
        do {
            let accepted = player.didComplete(.appearance(of: router.stacks[1].id))
            #expect(!accepted, "a repeated completion is ignored")
        }
    }

    @Test func withoutACompletionTheNextStepRunsAfterTheFallbackOfAtLeast650ms() {
        #expect(fallback == 650 * ms)
        #expect(FlowStagingTiming(completionFallbackNanoseconds: 100 * ms).completionFallbackNanoseconds == fallback)
        var timing = FlowStagingTiming()
        timing.completionFallbackNanoseconds = 1
        #expect(timing.completionFallbackNanoseconds == fallback)
        #expect(FlowStagingTiming(completionFallbackNanoseconds: 900 * ms).completionFallbackNanoseconds == 900 * ms)
        let router = FlowRouter<Screen, String>(root: .home)
        router.sheet(.sheet(1))
        router.fullScreenCover(.cover(1))
        var driver = FakeDriver(player: FlowStagingPlayer(launching: router.stacks))
        driver.play()
        #expect(driver.stepTimes == [0, fallback])
        #expect(driver.player.shown == router.stacks)
    }

    @Test func stepsFollowCompletionsAsTheyCome() {
        let router = FlowRouter<Screen, String>(root: .home)
        router.sheet(.sheet(1))
        router.sheet(.sheet(2))
        router.sheet(.sheet(3))
        var driver = FakeDriver(player: FlowStagingPlayer(launching: router.stacks))
        driver.completionLatency = [
            .appearance(of: router.stacks[1].id): 400 * ms,
            .appearance(of: router.stacks[2].id): 500 * ms,
        ]
        driver.play()
        #expect(driver.stepTimes == [0, 400 * ms, 900 * ms])
        #expect(driver.player.shown == router.stacks)
    }

    @Test func dismissalsWaitForOnDismissOfTheStackLeftOnTop() {
        let router = FlowRouter<Screen, String>(root: .home)
        router.sheet(.sheet(1))
        router.sheet(.sheet(2))
        var driver = FakeDriver(player: FlowStagingPlayer(launching: router.stacks))
        driver.play()
        let (root, sheet) = (router.stacks[0], router.stacks[1])
        router.setRoot(.list)
        driver.player.retarget(router.stacks)
        #expect(driver.player.pending.map(\.kind) == [.dismiss, .dismiss, .replaceRoot])
        driver.completionLatency = [
            .dismissal(presentedBy: sheet.id): 300 * ms,
            .dismissal(presentedBy: root.id): 350 * ms,
            .appearance(of: router.stacks[0].id): 10 * ms,
        ]
        driver.stepTimes = []
        let start = driver.now + 5 * fallback
        driver.now = start
        driver.play()
        #expect(driver.stepTimes == [start, start + 300 * ms, start + 650 * ms])
        #expect(driver.player.awaitedCompletion == .appearance(of: router.stacks[0].id))
        #expect(driver.player.shown == router.stacks)
    }

    @Test func theRoutersTransitionDelayStillSpacesStepsAfterACompletion() {
        let router = FlowRouter<Screen, String>(root: .home)
        router.sheet(.sheet(1))
        router.sheet(.sheet(2))
        var player = FlowStagingPlayer(launching: router.stacks)
        player.advance(now: 0)
        player.didComplete(.appearance(of: router.stacks[1].id))
        #expect(player.delayBeforeNextStep(now: 100 * ms, configuredDelayNanoseconds: 800 * ms) == 700 * ms)
        #expect(player.delayBeforeNextStep(now: 100 * ms, configuredDelayNanoseconds: 0) == 0)
    }

    @Test func aSwipeDownWaitsForItsOnDismissBeforeTheNextStep() {
        let router = FlowRouter<Screen, String>(root: .home)
        router.sheet(.sheet(1))
        var player = FlowStagingPlayer(launching: router.stacks)
        player.advance(now: 0)
        let (root, sheet) = (router.stacks[0], router.stacks[1])
        player.stackDidAppear(sheet.id)
        let swiped = player.userDidDismiss(stackID: sheet.id, now: 10 * fallback)
        #expect(swiped)
        router.userDidDismiss(stackID: sheet.id)
        router.sheet(.sheet(2))
        player.retarget(router.stacks)
        #expect(player.awaitedCompletion == .dismissal(presentedBy: root.id))
        #expect(player.delayBeforeNextStep(now: 10 * fallback, configuredDelayNanoseconds: 0) == fallback)
        do {
            let accepted = player.didComplete(.dismissal(presentedBy: root.id))
            #expect(accepted)
        }
        #expect(player.delayBeforeNextStep(now: 10 * fallback, configuredDelayNanoseconds: 0) == 0)
    }

    @Test func thePlayersOptionsDecideHowManyDismissalsAStepMakes() {
        let router = FlowRouter<Screen, String>(root: .home)
        router.sheet(.sheet(1))
        router.sheet(.sheet(2))
        var player = FlowStagingPlayer(launching: router.stacks)
        var driver = FakeDriver(player: player)
        driver.play()
        player = driver.player
        router.dismissAll()
        player.retarget(router.stacks)
        #expect(player.pending.map(\.kind) == [.dismiss, .dismiss])
        player.options = FlowStagingOptions(allowsMultipleDismissals: true)
        #expect(player.pending.map(\.kind) == [.dismiss])
        #expect(player.pending.first?.completion == .dismissal(presentedBy: router.stacks[0].id))
    }
}
