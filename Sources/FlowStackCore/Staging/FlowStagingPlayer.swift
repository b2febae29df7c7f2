import Foundation

/// Plays a staged transition: what a SwiftUI host shows now, which steps are left, and when the
/// next one may run.
///
/// The host keeps one player. Whenever the router's stacks change it calls `retarget(_:)`, then
/// loops: `delayBeforeNextStep(now:configuredDelayNanoseconds:)` says how long to wait at most
/// (or `nil` when the host shows the target), and `advance(now:)` moves `shown` one step on.
/// Steps come from `FlowStagingPlanner` with the player's `options`, so every change of `shown`
/// is one SwiftUI accepts. A step that presents, dismisses or replaces a stack waits for its
/// completion (`didComplete(_:)`, see `FlowStagingTiming`); the host wakes its loop when a
/// completion is accepted.
///
/// When the person changes the screen with a system gesture, SwiftUI has already moved: the host
/// reports it with `userDidSetPath(_:inStack:)` or `userDidDismiss(stackID:now:)`, which
/// change `shown` at once. Those writes are dropped (the functions return `false`) for a stack
/// that is not shown, or whose view has not appeared yet (`stackDidAppear(_:)`): SwiftUI writes
/// spurious values to bindings of views that are not on screen yet.
///
/// Times are plain nanoseconds on any monotonic clock the host chooses, so the decisions are
/// testable without waiting.
package struct FlowStagingPlayer<Route: Hashable>: Equatable {
    /// The stacks the host shows now, root first.
    package private(set) var shown: [FlowStackState<Route>]
    /// The stacks the host is heading for (the router's stacks when last retargeted).
    package private(set) var target: [FlowStackState<Route>]
    /// The steps still to play, next first.
    package private(set) var pending: [FlowStagingStep<Route>]
    /// The kind of the last step played, if any.
    package private(set) var lastStepKind: FlowStagingStep<Route>.Kind?
    /// When the last step (or gesture) was played, on the host's clock.
    package private(set) var lastStepTime: UInt64?
    /// The completion the last step waits for, or `nil` when it waits for none (a path change,
    /// or a completion that came).
    package private(set) var awaitedCompletion: FlowStagingCompletion?
    /// The stacks shown just before the last step or gesture that removed stacks (empty until
    /// then). SwiftUI still draws a removed stack while it animates out.
    package private(set) var departed: [FlowStackState<Route>] = []
    /// The shown or departed stacks whose view has appeared.
    package private(set) var appearedStacks: Set<UUID> = []

    /// What the platform's presentations can do in one update (conservative by default).
    package var options: FlowStagingOptions {
        didSet { pending = FlowStagingPlanner.plan(from: shown, to: target, options: options) }
    }
    /// When the next step may run.
    package var timing: FlowStagingTiming

    /// Creates a player for a host that appears while the router shows `target`.
    ///
    /// SwiftUI shows a navigation stack with its whole path in its first update, but not a chain
    /// of presentations: the host starts with the root stack and presents the rest step by step.
    package init(
        launching target: [FlowStackState<Route>],
        options: FlowStagingOptions = .conservative,
        timing: FlowStagingTiming = FlowStagingTiming()
    ) {
        self.shown = Array(target.prefix(1))
        self.target = target
        self.options = options
        self.timing = timing
        self.pending = FlowStagingPlanner.plan(from: shown, to: target, options: options)
    }

    /// Whether steps are left to play.
    package var isPlaying: Bool { !pending.isEmpty }

    /// The shown stack at `index`, or `nil`.
    package func stack(at index: Int) -> FlowStackState<Route>? {
        shown.indices.contains(index) ? shown[index] : nil
    }

    /// The shown stack with this identity, or `nil`.
    package func stack(id: UUID) -> FlowStackState<Route>? {
        shown.first { $0.id == id }
    }

    /// The shown stack that the shown stack `id` presents (the next one up), or `nil`.
    package func presented(byStack id: UUID) -> FlowStackState<Route>? {
        guard let index = shown.firstIndex(where: { $0.id == id }) else { return nil }
        return stack(at: index + 1)
    }

    /// Whether the stack `id` draws the global dialog where the host layers it inside the stacks
    /// (platforms where it has no window of its own): only the front-most shown stack does, so
    /// exactly one copy is drawn, above every other stack.
    package func hostsDialog(stackID id: UUID) -> Bool {
        shown.last?.id == id
    }

    /// Where to draw the stack `id` from: the shown stacks and its index there, or, for a stack
    /// that has just been removed and is animating out, the stacks shown before it left. `nil`
    /// for a stack that is neither.
    package func placement(ofStack id: UUID) -> (stacks: [FlowStackState<Route>], index: Int)? {
        if let index = shown.firstIndex(where: { $0.id == id }) { return (shown, index) }
        if let index = departed.firstIndex(where: { $0.id == id }) { return (departed, index) }
        return nil
    }

    /// Heads for new stacks (the router changed): the steps from `shown` to `target` replace the
    /// pending ones. Nothing is shown until `advance(now:)`.
    package mutating func retarget(_ target: [FlowStackState<Route>]) {
        self.target = target
        pending = FlowStagingPlanner.plan(from: shown, to: target, options: options)
    }

    /// How long to wait at most before `advance(now:)`, or `nil` when nothing is left to play.
    ///
    /// Measured from the last step: while it waits for its completion, the timing's fallback
    /// (at least 650 ms); after a path change followed by a presentation change, the timing's
    /// navigation spacing; never less than the router's transition delay when it sets one. The
    /// first step after a quiet period, or after a completion came, runs at once.
    package func delayBeforeNextStep(now: UInt64, configuredDelayNanoseconds: UInt64) -> UInt64? {
        guard let next = pending.first else { return nil }
        guard let lastTime = lastStepTime, let lastKind = lastStepKind else { return 0 }
        var wait = configuredDelayNanoseconds
        if awaitedCompletion != nil {
            wait = max(wait, timing.completionFallbackNanoseconds)
        } else if lastKind == .updatePaths, next.kind.changesPresentation {
            wait = max(wait, timing.navigationSpacingNanoseconds)
        }
        let elapsed = now >= lastTime ? now - lastTime : 0
        return wait > elapsed ? wait - elapsed : 0
    }

    /// Plays the next step: `shown` becomes its stacks, and the step waits for its completion.
    /// Returns the step, or `nil` when nothing was left.
    @discardableResult
    package mutating func advance(now: UInt64) -> FlowStagingStep<Route>? {
        guard !pending.isEmpty else { return nil }
        let step = pending.removeFirst()
        show(step.stacks)
        lastStepKind = step.kind
        lastStepTime = now
        awaitedCompletion = step.completion
        return step
    }

    /// The host reports a completion (a presented stack's view finished appearing, a sheet's or
    /// cover's `onDismiss` ran). Returns `true` when it is the one the last step waits for: the
    /// next step may then run at once, and the host should wake its loop. Other completions
    /// (late, repeated, or for another stack) are ignored.
    @discardableResult
    package mutating func didComplete(_ completion: FlowStagingCompletion) -> Bool {
        guard awaitedCompletion == completion else { return false }
        awaitedCompletion = nil
        return true
    }

    /// The view of the stack `id` appeared (SwiftUI's `onAppear`): from now on, what its bindings
    /// write applies. Ignored for a stack that is neither shown nor departed.
    package mutating func stackDidAppear(_ id: UUID) {
        guard placement(ofStack: id) != nil else { return }
        appearedStacks.insert(id)
    }

    /// Whether a write made for the shown stack `id` applies: it is shown and its view appeared.
    package func acceptsWrite(forStack id: UUID) -> Bool {
        stack(id: id) != nil && appearedStacks.contains(id)
    }

    /// SwiftUI changed a shown stack's path itself (a back swipe, or a link that appended a
    /// value): the stack shows `nodes` now, and the pending steps are planned again from there.
    /// Dropped (returns `false`) for a stack that is not shown or whose view has not appeared.
    @discardableResult
    package mutating func userDidSetPath(_ nodes: [FlowRouteNode<Route>], inStack id: UUID) -> Bool {
        guard acceptsWrite(forStack: id), let index = shown.firstIndex(where: { $0.id == id }) else { return false }
        let current = shown[index].storage
        if nodes.count <= current.count, zip(nodes, current.nodes).allSatisfy({ $0.id == $1.id }) {
            shown[index].storage.keepFirst(nodes.count)
        } else {
            shown[index].storage = FlowPath(nodes: nodes)
        }
        pending = FlowStagingPlanner.plan(from: shown, to: target, options: options)
        return true
    }

    /// SwiftUI dismissed a shown presented stack itself (a swipe-down, or the environment's
    /// `dismiss`): it and every stack it presented are gone, and the next step waits for the
    /// dismissal's `onDismiss`. Dropped (returns `false`) for the root stack, for a stack that is
    /// not shown, and for one whose view has not appeared (SwiftUI writes `nil` for a
    /// presentation it could not make).
    @discardableResult
    package mutating func userDidDismiss(stackID: UUID, now: UInt64) -> Bool {
        guard acceptsWrite(forStack: stackID), let index = shown.firstIndex(where: { $0.id == stackID }), index > 0 else {
            return false
        }
        show(Array(shown.prefix(index)))
        lastStepKind = .dismiss
        lastStepTime = now
        awaitedCompletion = .dismissal(presentedBy: shown[index - 1].id)
        pending = FlowStagingPlanner.plan(from: shown, to: target, options: options)
        return true
    }
}

extension FlowStagingPlayer {
    /// Shows `stacks`, remembering the previous ones when a stack goes, and forgets the
    /// appearance of stacks that are neither shown nor departed.
    fileprivate mutating func show(_ stacks: [FlowStackState<Route>]) {
        let kept = Set(stacks.map(\.id))
        if shown.contains(where: { !kept.contains($0.id) }) {
            departed = shown
        }
        shown = stacks
        let known = kept.union(departed.map(\.id))
        appearedStacks.formIntersection(known)
    }
}

extension FlowStagingStep {
    /// What the step waits for before the next one runs: the presented stack's or the new root's
    /// appearance, the dismissal reported by the stack left on top, or nothing for path changes.
    package var completion: FlowStagingCompletion? {
        switch kind {
        case .present, .replaceRoot: stacks.last.map { .appearance(of: $0.id) }
        case .dismiss: stacks.last.map { .dismissal(presentedBy: $0.id) }
        case .updatePaths: nil
        }
    }
}

extension FlowStagingStep.Kind {
    /// Whether the step presents, dismisses or replaces stacks (SwiftUI animates those as
    /// presentations, which must not overlap).
    package var changesPresentation: Bool {
        switch self {
        case .replaceRoot, .dismiss, .present: true
        case .updatePaths: false
        }
    }
}
