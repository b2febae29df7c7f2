// ObservableObject where Combine does not exist (stand-in: declarations only, for type-checking
// SwiftUI code on platforms without SwiftUI; never linked on Apple platforms; runtime behaviour is
// not modelled).
//
// On Apple platforms `ObservableObject` belongs to Combine, and `import SwiftUI` makes it visible.
// Linux has no Combine, so the stand-in declares the minimal protocol that SwiftUI's property
// wrappers need, with a publisher whose `send()` does nothing. `@Published` is not declared: call
// `objectWillChange.send()` before each change instead, which compiles on both platforms.

#if !canImport(SwiftUI) && !canImport(Combine)

/// A type of object with a publisher that emits before the object has changed.
public protocol ObservableObject: AnyObject {
    /// The type of publisher that emits before the object has changed.
    associatedtype ObjectWillChangePublisher = ObservableObjectPublisher

    /// A publisher that emits before the object has changed.
    var objectWillChange: Self.ObjectWillChangePublisher { get }
}

extension ObservableObject where Self.ObjectWillChangePublisher == ObservableObjectPublisher {
    /// A publisher that emits before the object has changed (it notifies nobody in the stand-in).
    public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher() }
}

/// A publisher that publishes changes from observable objects.
public final class ObservableObjectPublisher {
    /// Creates an observable object publisher instance.
    public init() {}

    /// Sends the changed value to the downstream subscriber (there are none in the stand-in).
    public func send() {}
}

#endif
