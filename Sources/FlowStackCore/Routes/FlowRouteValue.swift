import Foundation

/// A route as rules scripts see it: a case name plus payload fields (`{ name = "detail", id = "42" }`).
///
/// Also a route type of its own: the CLI's routers use it, so flows run against any app's
/// rules without the app's Swift types.
public struct FlowRouteValue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The case name.
    public var name: String
    /// The payload fields.
    public var payload: [String: FlowScriptValue]

    /// Creates a route value.
    public init(_ name: String, _ payload: [String: FlowScriptValue] = [:]) {
        self.name = name
        self.payload = payload
    }

    /// `detail{id="42"}` or `home`.
    public var description: String {
        guard !payload.isEmpty else { return name }
        let fields = payload.keys.sorted().map { "\($0)=\(payload[$0]!.luaSource)" }
        return "\(name){\(fields.joined(separator: ", "))}"
    }
}

extension FlowRouteValue: FlowRouteConvertible {
    /// The route itself.
    public var flowRoute: FlowRouteValue { self }

    /// The route itself.
    public init(flowRoute: FlowRouteValue) throws {
        self = flowRoute
    }
}
