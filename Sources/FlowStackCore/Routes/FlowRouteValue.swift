import Foundation

/// A route as rules scripts see it: a case name plus payload fields (`{ name = "detail", id = "42" }`).
///
/// Also a route type of its own: the CLI's routers use it, so flows run against any app's
/// rules without the app's Swift types. The shape, `Codable` form and Lua conversion are those
/// of every ``FlowNamedValue``.
public typealias FlowRouteValue = FlowNamedValue<FlowRouteRole>

/// The role of ``FlowRouteValue``: named by `name`, fields called payload fields, always a table.
public enum FlowRouteRole: FlowNamedValueRole {
    /// `"route"`.
    public static var noun: String { "route" }
    /// `"name"`.
    public static var nameField: String { "name" }
    /// `"payload field"`.
    public static var fieldNoun: String { "payload field" }
    /// `"payload"`.
    public static var fieldsKey: String { "payload" }
    /// `false`: `"home"` and `{ name = "home" }` are the same route.
    public static var keepsPlainForm: Bool { false }

    /// `detail{id="42"}` or `home`.
    public static func describe(_ route: FlowRouteValue) -> String {
        let payload = route.payload
        guard !payload.isEmpty else { return route.name }
        let fields = payload.keys.sorted().map { "\($0)=\(payload[$0]!)" }
        return "\(route.name){\(fields.joined(separator: ", "))}"
    }
}

extension FlowNamedValue where Role == FlowRouteRole {
    /// Creates a route value.
    @inlinable
    public init(_ name: String, _ payload: [String: FlowScriptValue] = [:]) {
        self.init(name: name, fields: payload)
    }

    /// The payload fields.
    @inlinable
    public var payload: [String: FlowScriptValue] {
        get { fields ?? [:] }
        set { fields = newValue }
    }
}

extension FlowNamedValue: FlowRouteConvertible where Role == FlowRouteRole {
    /// The route itself.
    public var flowRoute: FlowRouteValue { self }

    /// The route itself.
    public init(flowRoute: FlowRouteValue) throws {
        self = flowRoute
    }
}
