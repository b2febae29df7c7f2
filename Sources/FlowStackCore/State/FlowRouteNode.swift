import Foundation

/// One screen in a stack's path: a route plus its own identity.
///
/// The same route pushed twice is two screens with two identities, so equality and hashing use
/// `id` only.
public struct FlowRouteNode<Route: Hashable>: Identifiable, Hashable {
    /// The screen's identity.
    public let id: UUID
    /// The route the screen shows.
    public var route: Route

    /// Creates a node; pass an `id` to restore a known identity.
    public init(id: UUID = UUID(), route: Route) {
        self.id = id
        self.route = route
    }

    /// Nodes are equal when their identities are.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.id == rhs.id
    }

    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }
}

extension FlowRouteNode: Codable where Route: Codable {}
extension FlowRouteNode: Sendable where Route: Sendable {}
