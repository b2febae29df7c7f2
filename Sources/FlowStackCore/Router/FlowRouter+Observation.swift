import Foundation
#if canImport(Combine)
import Combine
#endif

/// A change a router reports to its observers.
public enum FlowRouterEvent<Route: Hashable> {
    /// A history entry was recorded (navigation or dialog), after the state changed.
    case recorded(FlowHistoryEntry<Route>)
    /// A transaction ended: committed (its entries, in order) or rolled back.
    case transaction(committed: Bool, entries: [FlowHistoryEntry<Route>])
    /// The whole state was replaced by `restore(_:)`.
    case restored
    /// The history was emptied.
    case historyCleared
}

/// A registration returned by `observe(_:)`; pass it to `removeObserver(_:)` to stop.
public struct FlowObservation: Hashable, Sendable {
    let id: UUID
}

extension FlowRouter {
    /// Calls `handler` after every change of the router, on any platform.
    ///
    /// SwiftUI observes through `ObservableObject` where Combine exists; this is the same signal
    /// for code that runs anywhere (tests, the CLI, analytics).
    @discardableResult
    public func observe(_ handler: @escaping @MainActor (FlowRouterEvent<Route>) -> Void) -> FlowObservation {
        let id = storage.state.ids.next()
        changeObservers.append((id, handler))
        return FlowObservation(id: id)
    }

    /// Stops an observation.
    public func removeObserver(_ observation: FlowObservation) {
        changeObservers.removeAll { $0.id == observation.id }
    }

    /// Announces a change of the state: every change of the stacks, dialogs or tabs comes here
    /// first (SwiftUI's `objectWillChange`, and the `revision` the pipeline validates against).
    @inlinable
    func willChange() {
        storage.revision &+= 1
        #if canImport(Combine)
        objectWillChange.send()
        #endif
    }

    @usableFromInline
    func didChange(_ event: FlowRouterEvent<Route>) {
        guard !changeObservers.isEmpty else { return }
        for observer in changeObservers {
            observer.handler(event)
        }
    }
}
