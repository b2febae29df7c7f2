#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)

/// Holds the stacks a `FlowStackView` shows and forwards time, completions, appearances and
/// gestures to the core's `FlowStagingPlayer`, which decides everything: which step comes next,
/// when it may run, and whether a write SwiftUI makes applies.
///
/// Every layer of the view observes this object, so a step redraws each stack, including the
/// ones inside sheets and covers (separate presentation contexts). It sends `objectWillChange`
/// before each change of `player` or `wakeCount`.
@MainActor
final class FlowStagingHost<Route: Hashable>: ObservableObject {
    /// The publisher SwiftUI subscribes to, declared rather than synthesized: Combine builds the
    /// synthesized one from `@Published` properties, and this class has none (without them the
    /// synthesized publisher is not guaranteed to be the same one at each access, and a send on
    /// another one updates no view). The router declares its own too.
    nonisolated(unsafe) let objectWillChange = ObservableObjectPublisher()
    /// The player: the shown stacks and the pending steps.
    private(set) var player: FlowStagingPlayer<Route>
    /// Counts the completions the player accepted; `FlowStackView` restarts `follow(_:)` when it
    /// changes, so the next step runs as soon as the last one completed.
    private(set) var wakeCount = 0

    /// Creates a host for a view that appears while the router shows `stacks`, with the plan
    /// SwiftUI supports on this system.
    init(launching stacks: [FlowStackState<Route>]) {
        self.player = FlowStagingPlayer(launching: stacks, options: Self.platformOptions)
    }

    /// What SwiftUI's presentations do in one update here: several dismissals at once from
    /// iOS 17, macOS 14, tvOS 17, watchOS 10 and visionOS on; one per update before.
    static var platformOptions: FlowStagingOptions {
        if #available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, *) {
            return FlowStagingOptions(allowsMultipleDismissals: true)
        }
        return .conservative
    }

    /// The host's monotonic clock, in nanoseconds.
    private var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Plays the steps to the router's stacks, waiting between them as the player says.
    ///
    /// Run from `task(id:)` keyed by the router's stacks and `wakeCount`: a new router state or an
    /// accepted completion cancels the wait, and the next run plans from what is shown by then.
    func follow<Dialog>(_ router: FlowRouter<Route, Dialog>) async {
        player.retarget(router.stacks)
        while let delay = player.delayBeforeNextStep(now: now, configuredDelayNanoseconds: router.queuedTransitionDelayNanoseconds) {
            if delay > 0 {
                do {
                    try await Task.sleep(nanoseconds: delay)
                } catch {
                    return
                }
            }
            objectWillChange.send()
            player.advance(now: now)
        }
    }

    /// The view of the stack `stackID` appeared (`onAppear`): its bindings' writes apply from
    /// now on, here and through the router's binding helpers.
    func stackDidAppear<Dialog>(_ stackID: UUID, router: FlowRouter<Route, Dialog>) {
        player.stackDidAppear(stackID)
        router.viewDidAppear(stackID: stackID)
    }

    /// The stack `stackID` finished appearing (end of its presentation, or a new root on screen).
    func stackDidFinishAppearing(_ stackID: UUID) {
        complete(.appearance(of: stackID))
    }

    /// The stack that the stack `presenterID` presented is gone (its sheet's or cover's
    /// `onDismiss` ran).
    func presentationDidDismiss(presenterID: UUID) {
        complete(.dismissal(presentedBy: presenterID))
    }

    /// NavigationStack wrote a shown stack's path (a back swipe): when the player accepts the
    /// write, shows it as SwiftUI does, reports it to the router as the person's operation, and
    /// catches up with the router.
    func userDidSetPath<Dialog>(_ nodes: [FlowRouteNode<Route>], inStack stackID: UUID, router: FlowRouter<Route, Dialog>) {
        guard player.acceptsWrite(forStack: stackID) else { return }
        objectWillChange.send()
        player.userDidSetPath(nodes, inStack: stackID)
        router.userDidChangePath(nodes.map(\.route), in: stackID)
        catchUp(with: router)
    }

    /// SwiftUI dismissed the shown presented stack `stackID` (a swipe-down): when the player
    /// accepts the write, shows it as SwiftUI does, reports it to the router as the person's
    /// operation, and catches up with the router.
    func userDidDismiss<Dialog>(stackID: UUID, router: FlowRouter<Route, Dialog>) {
        guard player.acceptsWrite(forStack: stackID), player.placement(ofStack: stackID)?.index != 0 else { return }
        objectWillChange.send()
        player.userDidDismiss(stackID: stackID, now: now)
        router.userDidDismiss(stackID: stackID)
        catchUp(with: router)
    }

    /// Hands a completion to the player and wakes `follow(_:)` when it was the awaited one.
    private func complete(_ completion: FlowStagingCompletion) {
        guard player.didComplete(completion) else { return }
        objectWillChange.send()
        wakeCount &+= 1
    }

    /// Retargets at once and plays the next step if it may run now (the rest, if any, is played
    /// by `follow(_:)`, which the router's change starts).
    private func catchUp<Dialog>(with router: FlowRouter<Route, Dialog>) {
        player.retarget(router.stacks)
        let delay = player.delayBeforeNextStep(now: now, configuredDelayNanoseconds: router.queuedTransitionDelayNanoseconds)
        if delay == 0 {
            player.advance(now: now)
        }
    }
}

/// What restarts a `FlowStackView`'s playback: the router's stacks, and accepted completions.
struct FlowFollowKey<Route: Hashable>: Equatable {
    /// The router's stacks.
    let stacks: [FlowStackState<Route>]
    /// The host's `wakeCount`.
    let wakeCount: Int
}

#endif
