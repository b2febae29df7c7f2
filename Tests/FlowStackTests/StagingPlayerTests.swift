import Foundation
import Testing
@testable import FlowStackCore
import FlowStackTestSupport

private enum Screen: Hashable { case home, list, detail(Int), sheet(Int), cover(Int) }

private let ms: UInt64 = 1_000_000
/// How long a presentation step waits at most for its completion.
private let fallback = FlowStagingTiming().completionFallbackNanoseconds
/// The pause between a path change and a presentation change.
private let spacing = FlowStagingTiming().navigationSpacingNanoseconds


/// Plays every pending step as soon as it may run; returns the time after the last one.
private func drain(_ player: inout FlowStagingPlayer<Screen>, from start: UInt64, configured: UInt64 = 0) -> UInt64 {
    var now = start
    while let delay = player.delayBeforeNextStep(now: now, configuredDelayNanoseconds: configured) {
        now += delay
        player.advance(now: now)
    }
    return now
}

@MainActor
struct StagingPlayerTests {
    @Test func launchShowsTheRootStackWithItsPathThenOnePresentationPerStep() {
        let router = FlowRouter<Screen, String>(root: .home, path: [.list, .detail(1)])
        router.sheet(.sheet(1), path: [.list])
        router.fullScreenCover(.cover(1))
        var player = FlowStagingPlayer(launching: router.stacks)
        #expect(player.shown == [router.stacks[0]])
        #expect(player.shown[0].path == [.list, .detail(1)])
        #expect(player.pending.map(\.kind) == [.present, .present])
        #expect(player.delayBeforeNextStep(now: 0, configuredDelayNanoseconds: 0) == 0)
        player.advance(now: 0)
        #expect(player.shown.count == 2)
        #expect(player.delayBeforeNextStep(now: 100 * ms, configuredDelayNanoseconds: 0) == fallback - 100 * ms)
        #expect(player.delayBeforeNextStep(now: fallback + 1, configuredDelayNanoseconds: 0) == 0)
        player.advance(now: fallback)
        #expect(player.shown == router.stacks)
        #expect(!player.isPlaying)
        #expect(player.delayBeforeNextStep(now: fallback, configuredDelayNanoseconds: 0) == nil)
        #expect(player.advance(now: fallback) == nil)
    }

    @Test func aSingleChangeAfterAQuietPeriodIsShownAtOnce() {
        let router = FlowRouter<Screen, String>(root: .home)
        var player = FlowStagingPlayer(launching: router.stacks)
        #expect(!player.isPlaying)
        router.push(.list)
        player.retarget(router.stacks)
        #expect(player.shown != router.stacks, "retarget alone shows nothing new")
        #expect(player.delayBeforeNextStep(now: 5 * ms, configuredDelayNanoseconds: 0) == 0)
        #expect(player.advance(now: 5 * ms)?.kind == .updatePaths)
        #expect(player.shown == router.stacks)
        router.sheet(.sheet(1))
        player.retarget(router.stacks)
        #expect(player.delayBeforeNextStep(now: 10 * spacing, configuredDelayNanoseconds: 0) == 0)
    }

    @Test func presentationChangesAreSpacedButPushesAreNot() {
        let router = FlowRouter<Screen, String>(root: .home)
        var player = FlowStagingPlayer(launching: router.stacks)
        router.push(.list)
        player.retarget(router.stacks)
        player.advance(now: 0)
        router.push(.detail(1))
        player.retarget(router.stacks)
        #expect(player.delayBeforeNextStep(now: 1, configuredDelayNanoseconds: 0) == 0)
        player.advance(now: 1)
        router.sheet(.sheet(1))
        player.retarget(router.stacks)
        #expect(player.delayBeforeNextStep(now: 2, configuredDelayNanoseconds: 0) == spacing - 1,
                "a presentation right after a push waits for the push animation")
        player.advance(now: spacing + 1)
        router.push(.list)
        player.retarget(router.stacks)
        #expect(player.delayBeforeNextStep(now: spacing + 1, configuredDelayNanoseconds: 0) == fallback,
                "a push right after a presentation waits for its completion")
    }

    @Test func theRoutersTransitionDelaySpacesEveryStep() {
        let router = FlowRouter<Screen, String>(root: .home)
        var player = FlowStagingPlayer(launching: router.stacks)
        router.push(.list)
        player.retarget(router.stacks)
        player.advance(now: 0)
        router.push(.detail(1))
        player.retarget(router.stacks)
        #expect(player.delayBeforeNextStep(now: 10 * ms, configuredDelayNanoseconds: 50 * ms) == 40 * ms)
        #expect(player.delayBeforeNextStep(now: 60 * ms, configuredDelayNanoseconds: 50 * ms) == 0)
    }

    @Test func aJumpIsPlayedDismissalsFirstAndEndsAtTheTarget() {
        let router = FlowRouter<Screen, String>(root: .home)
        router.sheet(.sheet(1))
        router.fullScreenCover(.cover(1))
        var player = FlowStagingPlayer(launching: router.stacks)
        _ = drain(&player, from: 0)
        #expect(player.shown == router.stacks)
        router.transaction { router in
            router.dismissAll()
            router.push(contentsOf: [.list, .detail(2)])
            router.sheet(.sheet(2), path: [.list])
            router.fullScreenCover(.cover(2))
        }
        player.retarget(router.stacks)
        #expect(player.pending.map(\.kind) == [.dismiss, .dismiss, .updatePaths, .present, .present])
        var previous = player.shown
        var now = 10 * fallback
        while let delay = player.delayBeforeNextStep(now: now, configuredDelayNanoseconds: 0) {
            now += delay
            let step = player.advance(now: now)
            #expect(step != nil)
            #expect(FlowStagingPlanner.isSingleUpdate(from: previous, to: player.shown))
            previous = player.shown
        }
        #expect(player.shown == router.stacks)
    }

    @Test func retargetingMidPlaybackPlansFromWhatIsShown() {
        let router = FlowRouter<Screen, String>(root: .home)
        router.sheet(.sheet(1))
        router.sheet(.sheet(2))
        router.sheet(.sheet(3))
        var player = FlowStagingPlayer(launching: router.stacks)
        player.advance(now: 0)
        #expect(player.shown.count == 2)
        router.dismissAll()
        router.push(.list)
        player.retarget(router.stacks)
        #expect(player.target == router.stacks)
        #expect(player.pending.map(\.kind) == [.dismiss, .updatePaths])
        _ = drain(&player, from: 0)
        #expect(player.shown == router.stacks)
    }

    @Test func aBackSwipeReportedToPlayerAndRouterLeavesNothingToPlay() throws {
        let router = FlowRouter<Screen, String>(root: .home, path: [.list, .detail(1), .detail(2)])
        var player = FlowStagingPlayer(launching: router.stacks)
        let stack = router.stacks[0]
        let swiped = Array(stack.navigationPath.prefix(1))
        let early = player.userDidSetPath(swiped, inStack: stack.id)
        #expect(!early, "dropped before the view appeared")
        #expect(player.shown[0].path == [.list, .detail(1), .detail(2)])
        player.stackDidAppear(stack.id)
        do {
            let accepted = player.userDidSetPath(swiped, inStack: stack.id)
            #expect(accepted)
        }
        #expect(player.shown[0].path == [.list])
        #expect(player.shown[0].navigationPath.map(\.id) == swiped.map(\.id))
        #expect(player.pending.map(\.kind) == [.updatePaths], "until the router hears of it, it still has the old path")
        try #require(router.userDidChangePath(swiped.map(\.route), in: stack.id)?.isApplied == true)
        player.retarget(router.stacks)
        #expect(player.shown == router.stacks)
        #expect(!player.isPlaying)
    }

    @Test func aPathSetByALinkIsShownAsSwiftUISetIt() {
        let router = FlowRouter<Screen, String>(root: .home, path: [.list])
        var player = FlowStagingPlayer(launching: router.stacks)
        let stack = router.stacks[0]
        let linked = stack.navigationPath + [FlowRouteNode(route: .detail(9))]
        player.stackDidAppear(stack.id)
        player.userDidSetPath(linked, inStack: stack.id)
        #expect(player.shown[0].navigationPath.map(\.id) == linked.map(\.id))
        router.userDidChangePath(linked.map(\.route), in: stack.id)
        player.retarget(router.stacks)
        #expect(player.pending.map(\.kind) == [.updatePaths], "the router's node identities replace SwiftUI's")
        _ = drain(&player, from: 0)
        #expect(player.shown == router.stacks)
    }

    @Test func aSwipeDownRemovesTheStackAndTheOnesAboveIt() throws {
        let router = FlowRouter<Screen, String>(root: .home)
        router.sheet(.sheet(1))
        router.fullScreenCover(.cover(1))
        var player = FlowStagingPlayer(launching: router.stacks)
        _ = drain(&player, from: 0)
        let swiped = router.stacks[1].id
        player.stackDidAppear(swiped)
        do {
            let accepted = player.userDidDismiss(stackID: swiped, now: 0)
            #expect(accepted)
        }
        #expect(player.shown == [router.stacks[0]])
        #expect(player.hostsDialog(stackID: router.stacks[0].id))
        let placement = try #require(player.placement(ofStack: router.stacks[2].id))
        #expect(placement.stacks == router.stacks && placement.index == 2, "the cover animates out as it was")
        router.userDidDismiss(stackID: swiped)
        player.retarget(router.stacks)
        #expect(!player.isPlaying)
    }

    @Test func gesturesOnStacksThatAreNotShownAreIgnored() {
        let router = FlowRouter<Screen, String>(root: .home, path: [.list])
        router.sheet(.sheet(1))
        var player = FlowStagingPlayer(launching: router.stacks)
        player.stackDidAppear(router.stacks[0].id)
        player.stackDidAppear(router.stacks[1].id)
        let before = player
        player.userDidSetPath([], inStack: router.stacks[1].id)
        player.userDidDismiss(stackID: router.stacks[1].id, now: 0)
        player.userDidDismiss(stackID: router.stacks[0].id, now: 0)
        #expect(player == before)
    }

    @Test func theFrontStackHostsTheDialogAndEachStackKnowsWhatItPresents() {
        let router = FlowRouter<Screen, String>(root: .home)
        router.sheet(.sheet(1))
        router.fullScreenCover(.cover(1))
        let (root, sheet, cover) = (router.stacks[0], router.stacks[1], router.stacks[2])
        var player = FlowStagingPlayer(launching: router.stacks)
        #expect(player.hostsDialog(stackID: root.id))
        #expect(player.presented(byStack: root.id) == nil)
        player.advance(now: 0)
        #expect(!player.hostsDialog(stackID: root.id) && player.hostsDialog(stackID: sheet.id))
        #expect(player.presented(byStack: root.id)?.id == sheet.id)
        #expect(player.presented(byStack: sheet.id) == nil)
        #expect(player.presented(byStack: cover.id) == nil)
        #expect(player.stack(id: sheet.id) == sheet)
        #expect(player.stack(id: cover.id) == nil)
        #expect(player.stack(at: 2) == nil)
        #expect(player.placement(ofStack: sheet.id)?.index == 1)
        #expect(player.placement(ofStack: cover.id) == nil, "not shown yet, and never shown")
    }

    @Test func aStackDismissedByAStepIsDrawnFromTheStacksShownBeforeIt() throws {
        let router = FlowRouter<Screen, String>(root: .home)
        router.sheet(.sheet(1), path: [.list])
        var player = FlowStagingPlayer(launching: router.stacks)
        _ = drain(&player, from: 0)
        #expect(player.departed.isEmpty)
        let before = router.stacks
        router.dismiss()
        router.sheet(.sheet(2))
        player.retarget(router.stacks)
        player.advance(now: fallback)
        let placement = try #require(player.placement(ofStack: before[1].id))
        #expect(placement.stacks == before && placement.index == 1)
        #expect(player.placement(ofStack: before[0].id)?.stacks == player.shown, "shown stacks come first")
        player.advance(now: 2 * fallback)
        #expect(player.presented(byStack: before[0].id)?.root == .sheet(2))
        #expect(player.departed == before, "presenting removes nothing")
    }

    @Test(arguments: [UInt64(3), 17, 256, 4_096, 77_777])
    func randomChangesAndGesturesAlwaysPlayInValidStepsToTheRoutersState(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        let router = FlowRouter<Screen, String>(root: .home)
        var player = FlowStagingPlayer(launching: router.stacks)
        var now: UInt64 = 0
        let configured: UInt64 = seed % 2 == 0 ? 0 : 20 * ms
        for round in 0..<300 {
            let n = Int.random(in: 0..<50, using: &rng)
            switch Int.random(in: 0..<12, using: &rng) {
            case 0: router.push(.detail(n))
            case 1: router.push(contentsOf: [.list, .detail(n)])
            case 2: router.pop(count: 1 + n % 3)
            case 3: router.sheet(.sheet(n), path: n % 2 == 0 ? [.list] : [])
            case 4: router.fullScreenCover(.cover(n))
            case 5: router.dismiss()
            case 6: router.setRoot(.home, path: n % 3 == 0 ? [.list] : [])
            case 7: router.dismissAll()
            case 8:
                if let stack = player.shown.randomElement(using: &rng) { player.stackDidAppear(stack.id) }
                if let stack = player.shown.randomElement(using: &rng), stack.pathCount > 0 {
                    let kept = Array(stack.navigationPath.prefix(n % stack.pathCount))
                    player.userDidSetPath(kept, inStack: stack.id)
                    router.userDidChangePath(kept.map(\.route), in: stack.id)
                }
            case 9:
                if player.shown.count > 1 {
                    let stack = player.shown[1 + n % (player.shown.count - 1)]
                    player.stackDidAppear(stack.id)
                    player.userDidDismiss(stackID: stack.id, now: now)
                    router.userDidDismiss(stackID: stack.id)
                }
            case 10:
                if let stack = player.shown.last {
                    player.didComplete(.appearance(of: stack.id))
                    player.didComplete(.dismissal(presentedBy: stack.id))
                }
            default: break
            }
            player.retarget(router.stacks)
            let ticks = Int.random(in: 0...3, using: &rng)
            for _ in 0..<ticks {
                guard let delay = player.delayBeforeNextStep(now: now, configuredDelayNanoseconds: configured) else { break }
                #expect(delay <= max(configured, fallback), "seed \(seed), round \(round): waits too long")
                now += delay + UInt64.random(in: 0...(5 * ms), using: &rng)
                let before = player.shown
                player.advance(now: now)
                #expect(FlowStagingPlanner.isSingleUpdate(from: before, to: player.shown),
                        "seed \(seed), round \(round): a step SwiftUI cannot take in one update")
            }
        }
        now = drain(&player, from: now, configured: configured)
        #expect(player.shown == router.stacks, "seed \(seed): playback did not end at the router's state")
    }
}
