#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)

/// Holds the stacks a `FlowStackView` shows and forwards time and gestures to the core's
/// `FlowStagingPlayer`, which decides everything: which step comes next, when it may run, and
/// what a gesture changes.
///
/// Every layer of the view observes this object, so a step redraws each stack, including the
/// ones inside sheets and covers (separate presentation contexts). It uses the default
/// `objectWillChange` publisher and sends it before each change of `player`.
@MainActor
final class FlowStagingHost<Route: Hashable>: ObservableObject {
    /// The player: the shown stacks and the pending steps.
    private(set) var player: FlowStagingPlayer<Route>

    /// Creates a host for a view that appears while the router shows `stacks`.
    init(launching stacks: [FlowStackState<Route>]) {
        self.player = FlowStagingPlayer(launching: stacks)
    }

    /// The host's monotonic clock, in nanoseconds.
    private var now: UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// Plays the steps to the router's stacks, waiting between them as the player says.
    ///
    /// Run from `task(id: router.stacks)`: a new router state cancels the wait, and the next run
    /// plans from what is shown by then.
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

    /// NavigationStack wrote a shown stack's path (a back swipe): shows it as SwiftUI does,
    /// reports it to the router as the person's operation, and catches up with the router.
    func userDidSetPath<Dialog>(_ nodes: [FlowRouteNode<Route>], inStack stackID: UUID, router: FlowRouter<Route, Dialog>) {
        guard player.stack(id: stackID) != nil else { return }
        objectWillChange.send()
        player.userDidSetPath(nodes, inStack: stackID)
        router.userDidChangePath(nodes.map(\.route), in: stackID)
        catchUp(with: router)
    }

    /// SwiftUI dismissed a shown presented stack (a swipe-down): shows it as SwiftUI does,
    /// reports it to the router as the person's operation, and catches up with the router.
    func userDidDismiss<Dialog>(stackID: UUID, router: FlowRouter<Route, Dialog>) {
        guard player.stack(id: stackID) != nil else { return }
        objectWillChange.send()
        player.userDidDismiss(stackID: stackID)
        router.userDidDismiss(stackID: stackID)
        catchUp(with: router)
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

#endif
