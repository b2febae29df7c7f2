#if canImport(SwiftUI)
import SwiftUI
#elseif canImport(SwiftUIStandIn)
import SwiftUIStandIn
#endif
#if canImport(SwiftUI) || canImport(SwiftUIStandIn)

#if !canImport(Combine) && canImport(SwiftUIStandIn)
/// Where Combine does not exist (Linux), the stand-in declares `ObservableObject` for
/// `@StateObject` and `@ObservedObject`; the router conforms with the stand-in's default
/// publisher, which notifies nobody (nothing runs against the stand-in). On Apple platforms the
/// core's own Combine conformance is used.
extension FlowRouter: ObservableObject {}
#endif

#endif
