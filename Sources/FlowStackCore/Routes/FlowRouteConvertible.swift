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

/// A route a script named that the app's route type cannot represent.
public struct FlowRouteConversionError: Error, CustomStringConvertible, Sendable {
    /// What was wrong and what would fit.
    public let description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}

extension FlowRouteConvertible where Self: Codable {
    /// The route as scripts see it, through its `Codable` shape.
    public var flowRoute: FlowRouteValue {
        guard let data = try? JSONEncoder().encode(self),
              let shape = try? JSONDecoder().decode(FlowScriptValue.self, from: data) else {
            return FlowRouteValue(String(describing: self))
        }
        switch shape {
        case .string(let name):
            return FlowRouteValue(name)
        case .table(let cases) where cases.count == 1:
            let (name, payload) = cases.first!
            if case .table(let fields) = payload { return FlowRouteValue(name, fields) }
            return FlowRouteValue(name, ["_0": payload])
        case .table(let fields):
            if case .string(let name)? = fields["name"] {
                return FlowRouteValue(name, fields.filter { $0.key != "name" })
            }
            return FlowRouteValue(String(describing: Self.self), fields)
        default:
            return FlowRouteValue(String(describing: self))
        }
    }

    /// Builds the route from its `Codable` shape (`{ "<case>": { <payload> } }`).
    public init(flowRoute: FlowRouteValue) throws {
        // A route without payload may be a `String` raw-value enum's case, encoded as its name.
        if flowRoute.payload.isEmpty, let data = try? JSONEncoder().encode(FlowScriptValue.string(flowRoute.name)),
           let route = try? JSONDecoder().decode(Self.self, from: data) {
            self = route
            return
        }
        let shape = FlowScriptValue.table([flowRoute.name: .table(flowRoute.payload)])
        do {
            let data = try JSONEncoder().encode(shape)
            self = try JSONDecoder().decode(Self.self, from: data)
        } catch {
            throw FlowRouteConversionError(
                "\(Self.self) has no route \(flowRoute) (check the case name and its payload fields): \(error)"
            )
        }
    }
}
