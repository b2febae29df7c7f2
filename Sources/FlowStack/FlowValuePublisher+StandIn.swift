#if !canImport(Combine) && canImport(SwiftUIStandIn)
import SwiftUIStandIn

/// Where Combine does not exist (Linux), the router's publishers (`router.$stacks`, ...)
/// conform to the stand-in's `Publisher`, so that app code subscribing to them type-checks.
/// Nothing is published there; on Apple platforms they are Combine publishers (core).
extension FlowValuePublisher: Publisher {
    /// The router's value.
    public typealias Output = Value
    /// Never fails.
    public typealias Failure = Never
}
#endif
