// Route and dialog types shared by FlowStack's test targets. Not a product: never shipped.
import FlowStackCore

/// A plain `Hashable` and `Codable` route enum covering the screens the tests navigate between.
public enum TestRoute: Hashable, Codable, Sendable {
    /// A launch screen.
    case splash
    /// A home screen.
    case home
    /// Short names for path tests.
    case a, b, c
    /// A detail screen with a payload, so equal routes can carry different values.
    case detail(Int)
    /// A settings screen.
    case settings
    /// A login screen (redirect target).
    case login
    /// A paywall (redirect target).
    case paywall
    /// An editor screen.
    case editor
    /// A picker, usually presented.
    case picker
    /// A numbered step, for long or ordered sequences.
    case step(Int)
}

/// An `Identifiable` dialog whose history key is its `id`.
public struct TestDialog: Hashable, Codable, Sendable, Identifiable {
    /// The dialog's identity.
    public let id: String

    /// Creates a dialog with this identity.
    public init(_ id: String) {
        self.id = id
    }
}

/// The router type most tests use.
public typealias TestRouter = FlowRouter<TestRoute, TestDialog>

extension TestRoute: FlowRouteConvertible {}
