// A recording observer for tests. Not a product: never shipped.
import FlowStackCore

/// Records every event a router reports through `observe(_:)`.
@MainActor
public final class RouterEventRecorder<Route: Hashable> {
    /// The events, in order.
    public private(set) var events: [FlowRouterEvent<Route>] = []
    /// The registration, to stop observing.
    public private(set) var observation: FlowObservation?

    /// Starts recording `router`'s events.
    public init<Dialog>(_ router: FlowRouter<Route, Dialog>) {
        observation = router.observe { [weak self] event in
            self?.events.append(event)
        }
    }

    /// The entries of `.recorded` events, in order.
    public var recordedEntries: [FlowHistoryEntry<Route>] {
        events.compactMap { event in
            if case .recorded(let entry) = event { return entry }
            return nil
        }
    }

    /// The `(committed, entry count)` of `.transaction` events, in order.
    public var transactions: [(committed: Bool, entryCount: Int)] {
        events.compactMap { event in
            if case .transaction(let committed, let entries) = event { return (committed, entries.count) }
            return nil
        }
    }

    /// How many `.restored` events arrived.
    public var restoredCount: Int {
        events.filter { if case .restored = $0 { return true } else { return false } }.count
    }

    /// How many `.historyCleared` events arrived.
    public var historyClearedCount: Int {
        events.filter { if case .historyCleared = $0 { return true } else { return false } }.count
    }
}
