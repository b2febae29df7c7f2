import FlowScript
import FlowStackCore
import Foundation

/// An app's route type: a `Codable` enum that scripts see through the default
/// `FlowRouteConvertible` conformance (its `Codable` shape), as an app declares its routes.
enum BenchAppRoute: Codable, Hashable, FlowRouteConvertible {
    case home
    case projects
    case detail(id: String)
}

extension LuaBenchmarks {
    /// `lua_guarded_push_ns`'s push + pop pair through the example rules, with an app-style
    /// `Codable` enum route instead of `FlowRouteValue`, so the route's conversion is paid as an
    /// app pays it; nanoseconds per operation.
    static func guardedEnumPush() throws -> Double {
        let engine = try exampleEngine(BenchAppRoute.self)
        defer { engine.close() }
        return pushPop(through: engine, root: .home, pushed: .projects, depth: 0, below: { .detail(id: String($0)) })
    }
}
