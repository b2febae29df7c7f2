import Foundation

/// Plays a staged transition: what a SwiftUI host shows now, which steps are left, and when the
/// next one may run.
///
/// The host keeps one player. Whenever the router's stacks change it calls `retarget(_:)`, then
/// loops: `delayBeforeNextStep(now:configuredDelayNanoseconds:)` says how long to wait (or `nil`
/// when the host shows the target), and `advance(now:)` moves `shown` one step on. Steps come from
/// `FlowStagingPlanner`, so every change of `shown` is one SwiftUI accepts. When the person
/// changes the screen with a system gesture, SwiftUI has already moved: the host reports it with
/// `userDidSetPath(_:inStack:)` or `userDidDismiss(stackID:)`, which change `shown` at once.
///
/// Times are plain nanoseconds on any monotonic clock the host chooses, so the decisions are
/// testable without waiting.
public struct FlowStagingPlayer<Route: Hashable>: Equatable {
    /// The pause after (or before) a presentation change when the router sets no transition
    /// delay: roughly the length of SwiftUI's sheet animation.
    public static var defaultPresentationSpacingNanoseconds: UInt64 { 350_000_000 }

    /// The stacks the host shows now, root first.
    public private(set) var shown: [FlowStackState<Route>]
    /// The stacks the host is heading for (the router's stacks when last retargeted).
    public private(set) var target: [FlowStackState<Route>]
    /// The steps still to play, next first.
    public private(set) var pending: [FlowStagingStep<Route>]
    /// The kind of the last step played, if any.
    public private(set) var lastStepKind: FlowStagingStep<Route>.Kind?
    /// When the last step was played, on the host's clock.
    public private(set) var lastStepTime: UInt64?
    /// The stacks shown just before the last step or gesture that removed stacks (empty until
    /// then). SwiftUI still draws a removed stack while it animates out.
    public private(set) var departed: [FlowStackState<Route>] = []

    /// The pause around presentation changes when the router sets no transition delay.
    public var presentationSpacingNanoseconds: UInt64

    /// Creates a player for a host that appears while the router shows `target`.
    ///
    /// SwiftUI shows a navigation stack with its whole path in its first update, but not a chain
    /// of presentations: the host starts with the root stack and presents the rest step by step.
    public init(
        launching target: [FlowStackState<Route>],
        presentationSpacingNanoseconds: UInt64 = Self.defaultPresentationSpacingNanoseconds
    ) {
        self.shown = Array(target.prefix(1))
        self.target = target
        self.pending = FlowStagingPlanner.plan(from: shown, to: target)
        self.presentationSpacingNanoseconds = presentationSpacingNanoseconds
    }

    /// Whether steps are left to play.
    public var isPlaying: Bool { !pending.isEmpty }

    /// The shown stack at `index`, or `nil`.
    public func stack(at index: Int) -> FlowStackState<Route>? {
        shown.indices.contains(index) ? shown[index] : nil
    }

    /// The shown stack with this identity, or `nil`.
    public func stack(id: UUID) -> FlowStackState<Route>? {
        shown.first { $0.id == id }
    }

    /// The shown stack that the shown stack `id` presents (the next one up), or `nil`.
    public func presented(byStack id: UUID) -> FlowStackState<Route>? {
        guard let index = shown.firstIndex(where: { $0.id == id }) else { return nil }
        return stack(at: index + 1)
    }

    /// Whether the stack `id` draws the global dialog: only the front-most shown stack does, so
    /// exactly one copy is drawn, above every other stack (SwiftUI sheets and covers are separate
    /// presentation contexts, so an overlay on the root would sit below them).
    public func hostsDialog(stackID id: UUID) -> Bool {
        shown.last?.id == id
    }

    /// Where to draw the stack `id` from: the shown stacks and its index there, or, for a stack
    /// that has just been removed and is animating out, the stacks shown before it left. `nil`
    /// for a stack that is neither.
    public func placement(ofStack id: UUID) -> (stacks: [FlowStackState<Route>], index: Int)? {
        if let index = shown.firstIndex(where: { $0.id == id }) { return (shown, index) }
        if let index = departed.firstIndex(where: { $0.id == id }) { return (departed, index) }
        return nil
    }

    /// Heads for new stacks (the router changed): the steps from `shown` to `target` replace the
    /// pending ones. Nothing is shown until `advance(now:)`.
    public mutating func retarget(_ target: [FlowStackState<Route>]) {
        self.target = target
        pending = FlowStagingPlanner.plan(from: shown, to: target)
    }

    /// How long to wait before `advance(now:)`, or `nil` when nothing is left to play.
    ///
    /// The wait is measured from the last step: the router's transition delay when it sets one,
    /// otherwise `presentationSpacingNanoseconds` when the last or the next step presents or
    /// dismisses something, otherwise none. The first step after a quiet period runs at once.
    public func delayBeforeNextStep(now: UInt64, configuredDelayNanoseconds: UInt64) -> UInt64? {
        guard let next = pending.first else { return nil }
        guard let lastTime = lastStepTime, let lastKind = lastStepKind else { return 0 }
        let spacing: UInt64
        if configuredDelayNanoseconds > 0 {
            spacing = configuredDelayNanoseconds
        } else if lastKind.changesPresentation || next.kind.changesPresentation {
            spacing = presentationSpacingNanoseconds
        } else {
            spacing = 0
        }
        let elapsed = now >= lastTime ? now - lastTime : 0
        return spacing > elapsed ? spacing - elapsed : 0
    }

    /// Plays the next step: `shown` becomes its stacks. Returns the step, or `nil` when nothing
    /// was left.
    @discardableResult
    public mutating func advance(now: UInt64) -> FlowStagingStep<Route>? {
        guard !pending.isEmpty else { return nil }
        let step = pending.removeFirst()
        show(step.stacks)
        lastStepKind = step.kind
        lastStepTime = now
        return step
    }

    /// SwiftUI changed a shown stack's path itself (a back swipe, or a link that appended a
    /// value): the stack shows `nodes` now. Ignored for a stack that is not shown. The pending
    /// steps are planned again from there.
    public mutating func userDidSetPath(_ nodes: [FlowRouteNode<Route>], inStack id: UUID) {
        guard let index = shown.firstIndex(where: { $0.id == id }) else { return }
        let current = shown[index].storage
        if nodes.count <= current.count, zip(nodes, current.nodes).allSatisfy({ $0.id == $1.id }) {
            shown[index].storage.keepFirst(nodes.count)
        } else {
            shown[index].storage = FlowPath(nodes: nodes)
        }
        pending = FlowStagingPlanner.plan(from: shown, to: target)
    }

    /// SwiftUI dismissed a shown presented stack itself (a swipe-down): it and every stack it
    /// presented are gone. Ignored for the root stack and for a stack that is not shown.
    public mutating func userDidDismiss(stackID: UUID) {
        guard let index = shown.firstIndex(where: { $0.id == stackID }), index > 0 else { return }
        show(Array(shown.prefix(index)))
        pending = FlowStagingPlanner.plan(from: shown, to: target)
    }
}

extension FlowStagingPlayer {
    /// Shows `stacks`, remembering the previous ones when a stack goes.
    fileprivate mutating func show(_ stacks: [FlowStackState<Route>]) {
        let kept = Set(stacks.map(\.id))
        if shown.contains(where: { !kept.contains($0.id) }) {
            departed = shown
        }
        shown = stacks
    }
}

extension FlowStagingStep.Kind {
    /// Whether the step presents, dismisses or replaces stacks (SwiftUI animates those as
    /// presentations, which must not overlap).
    public var changesPresentation: Bool {
        switch self {
        case .replaceRoot, .dismiss, .present: true
        case .updatePaths: false
        }
    }
}
