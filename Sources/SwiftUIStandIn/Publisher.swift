// The part of Combine that SwiftUI code uses with publishers (stand-in: declarations only, for
// type-checking SwiftUI code on platforms without Combine; never linked on Apple platforms;
// runtime behaviour is not modelled: nothing is ever published, sunk or cancelled).
//
// On Apple platforms these are Combine's; `import SwiftUI` makes `onReceive` visible and apps
// `import Combine` for `sink` and `AnyCancellable`. Here `import SwiftUIStandIn` declares them,
// so that `router.$stacks.sink { ... }.store(in: &cancellables)` and
// `.onReceive(router.$globalDialog) { ... }` type-check on Linux.

#if !canImport(SwiftUI) && !canImport(Combine)

/// A type that can deliver a sequence of values over time.
public protocol Publisher<Output, Failure> {
    /// The kind of values published by this publisher.
    associatedtype Output
    /// The kind of errors this publisher might publish.
    associatedtype Failure: Error
}

/// A protocol indicating that an activity or action supports cancellation.
public protocol Cancellable {
    /// Cancel the activity.
    func cancel()
}

/// A type-erasing cancellable object that executes a provided closure when cancelled.
public final class AnyCancellable: Cancellable, Hashable {
    /// Initializes the cancellable object with the given cancel-time closure.
    public init(_ cancel: @escaping () -> Void) {}

    /// Cancel the activity (nothing runs in the stand-in).
    public func cancel() {}

    /// Stores this type-erasing cancellable instance in the specified set.
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    /// Whether two cancellables are the same object.
    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber with closure-based behavior to a publisher that never fails.
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        AnyCancellable {}
    }
}

extension View {
    /// Adds an action to perform when this view detects data emitted by the given publisher.
    nonisolated public func onReceive<P: Publisher>(
        _ publisher: P,
        perform action: @escaping (P.Output) -> Void
    ) -> some View where P.Failure == Never {
        standInModified()
    }
}

#endif
