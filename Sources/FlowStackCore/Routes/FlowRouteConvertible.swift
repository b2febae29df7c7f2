import Foundation

/// A route type that rules scripts can see and redirect to.
///
/// Routes cross into Lua as `{ name = "detail", id = "42" }`. `Codable` enums get both
/// directions for free (the case name becomes `name`, labelled associated values the payload
/// fields, unlabelled ones `_0`, `_1`, ...), so most apps write no conversion code. Implement
/// the two requirements yourself for other shapes or for speed.
public protocol FlowRouteConvertible: Hashable {
    /// The route as scripts see it.
    var flowRoute: FlowRouteValue { get }
    /// Builds the route a script names; throws when the name or payload does not fit.
    init(flowRoute: FlowRouteValue) throws
}

/// A route a script named that the app's route type cannot represent (the error dialogs share).
public typealias FlowRouteConversionError = FlowValueConversionError

extension FlowRouteConvertible where Self: Codable {
    /// The route as scripts see it, through its `Codable` shape (the case name becomes `name`,
    /// labelled associated values the payload fields, unlabelled ones `_0`, `_1`, ...).
    public var flowRoute: FlowRouteValue { FlowRouteValue(encoding: self) }

    /// Builds the route from its `Codable` shape (`{ "<case>": { <payload> } }`, a string
    /// enum's raw value, or a struct with a `name` field).
    public init(flowRoute: FlowRouteValue) throws {
        self = try flowRoute.decode(as: Self.self)
    }
}
