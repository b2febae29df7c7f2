import Foundation

/// What the platform's presentations can do in one update, for `FlowStagingPlanner`.
///
/// The default is the conservative plan every supported system accepts (SwiftUI on iOS 16 and
/// macOS 13 dismisses one presentation per update: several at once tear down a view that still
/// presents). The SwiftUI host asks for more only where SwiftUI does it (`allowsMultipleDismissals`
/// on iOS 17+, macOS 14+, tvOS 17+, watchOS 10+, visionOS).
package struct FlowStagingOptions: Hashable, Sendable {
    /// Whether one step may dismiss several presented stacks at once. `false` (the default):
    /// one presented stack is removed per step, the front-most first.
    package var allowsMultipleDismissals: Bool

    /// Creates options; the defaults give the conservative plan.
    package init(allowsMultipleDismissals: Bool = false) {
        self.allowsMultipleDismissals = allowsMultipleDismissals
    }

    /// The conservative plan: one presentation removed or added per step.
    package static var conservative: FlowStagingOptions { FlowStagingOptions() }
}
