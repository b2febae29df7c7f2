// Animation and Transaction (stand-in: declarations only, for type-checking SwiftUI code on
// platforms without SwiftUI; never linked on Apple platforms; runtime behaviour is not modelled:
// nothing animates).

#if !canImport(SwiftUI)

/// The way a view changes over time to create a smooth visual transition from one state to another.
public struct Animation: Equatable, Sendable, CustomStringConvertible {
    /// A textual description of the animation.
    public let description: String

    /// A default animation instance.
    public static let `default` = Animation(description: "default")

    /// A linear animation with the default duration.
    public static var linear: Animation { Animation(description: "linear") }
    /// An animation with a linear curve and the given duration.
    public static func linear(duration: TimeInterval) -> Animation { Animation(description: "linear(\(duration))") }

    /// An ease-in animation with the default duration.
    public static var easeIn: Animation { Animation(description: "easeIn") }
    /// An ease-in animation with the given duration.
    public static func easeIn(duration: TimeInterval) -> Animation { Animation(description: "easeIn(\(duration))") }

    /// An ease-out animation with the default duration.
    public static var easeOut: Animation { Animation(description: "easeOut") }
    /// An ease-out animation with the given duration.
    public static func easeOut(duration: TimeInterval) -> Animation { Animation(description: "easeOut(\(duration))") }

    /// An ease-in-out animation with the default duration.
    public static var easeInOut: Animation { Animation(description: "easeInOut") }
    /// An ease-in-out animation with the given duration.
    public static func easeInOut(duration: TimeInterval) -> Animation {
        Animation(description: "easeInOut(\(duration))")
    }

    /// A persistent spring animation with the default parameters.
    public static var spring: Animation { Animation(description: "spring") }
    /// A persistent spring animation with the given response, damping and blend duration.
    public static func spring(
        response: Double = 0.5,
        dampingFraction: Double = 0.825,
        blendDuration: TimeInterval = 0
    ) -> Animation {
        Animation(description: "spring(\(response), \(dampingFraction), \(blendDuration))")
    }

    /// Delays the start of the animation by the given number of seconds.
    public func delay(_ delay: TimeInterval) -> Animation { self }

    /// Changes the duration of the animation by adjusting its speed.
    public func speed(_ speed: Double) -> Animation { self }
}

/// The context of the current state-processing update.
public struct Transaction {
    /// The animation, if any, associated with the current state change.
    public var animation: Animation?

    /// A Boolean value that indicates whether views should disable animations.
    public var disablesAnimations: Bool

    /// Creates a transaction.
    public init() {
        self.animation = nil
        self.disablesAnimations = false
    }

    /// Creates a transaction and assigns its animation property.
    public init(animation: Animation?) {
        self.animation = animation
        self.disablesAnimations = false
    }
}

/// Returns the result of recomputing the view's body with the provided animation.
public func withAnimation<Result>(_ animation: Animation? = .default, _ body: () throws -> Result) rethrows -> Result {
    try body()
}

/// Executes a closure with the specified transaction and returns the result.
public func withTransaction<Result>(_ transaction: Transaction, _ body: () throws -> Result) rethrows -> Result {
    try body()
}

extension View {
    /// Applies the given animation to this view when the specified value changes.
    nonisolated public func animation<V: Equatable>(_ animation: Animation?, value: V) -> some View {
        standInModified()
    }

    /// Applies the given transaction mutation function to all animations used within the view.
    nonisolated public func transaction(_ transform: @escaping (inout Transaction) -> Void) -> some View {
        standInModified()
    }
}

#endif
