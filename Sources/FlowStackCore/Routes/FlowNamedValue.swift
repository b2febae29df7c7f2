import Foundation

/// What a kind of named value is called and how it is written: a route (`FlowRouteRole`) or a
/// dialog (`FlowDialogRole`).
///
/// The role is a type parameter of ``FlowNamedValue`` only: routes and dialogs share one shape,
/// one Lua conversion and one `Codable` conversion, and differ in these names.
public protocol FlowNamedValueRole: Sendable {
    /// What scripts and messages call a value: `"route"`, `"dialog"`.
    static var noun: String { get }
    /// The table field that holds the name: `"name"` (`{ name = "detail" }`), `"id"`.
    static var nameField: String { get }
    /// What messages call one of the other fields: `"payload field"`, `"field"`.
    static var fieldNoun: String { get }
    /// The key of the fields in the value's own `Codable` form: `"payload"`, `"fields"`.
    static var fieldsKey: String { get }
    /// Whether a value given as a plain name stays one (its `fields` `nil`, its Lua value the
    /// string), as a dialog does; when not, its fields are an empty table, as a route's.
    static var keepsPlainForm: Bool { get }
    /// The value as messages and logs show it.
    static func describe(_ value: FlowNamedValue<Self>) -> String
}

/// A value rules name: a name and, unless it was given as a plain name, its other fields.
///
/// A route (``FlowRouteValue``, `{ name = "detail", id = "42" }`) and a dialog
/// (``FlowDialogValue``, `"networkError"` or `{ id = "deleteConfirmation", item = "42" }`) are
/// both this shape; `Role` says which.
public struct FlowNamedValue<Role: FlowNamedValueRole>: Hashable, Sendable, CustomStringConvertible {
    /// The name: a route's case name, a dialog's id.
    public var name: String
    /// The other fields, or `nil` when the value was given as a plain name (a role that does
    /// not keep the plain form stores an empty table instead).
    public var fields: [String: FlowScriptValue]?

    /// Creates a value; `fields` `nil` means a plain name.
    @inlinable
    public init(name: String, fields: [String: FlowScriptValue]?) {
        self.name = name
        self.fields = fields ?? (Role.keepsPlainForm ? nil : [:])
    }

    /// The value as messages and logs show it (a route `detail{id="42"}`, a dialog as Lua source).
    public var description: String { Role.describe(self) }
}

extension FlowNamedValue: Codable {
    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Reads `{ "<nameField>": ..., "<fieldsKey>": { ... } }`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        self.init(
            name: try container.decode(String.self, forKey: Key(Role.nameField)),
            fields: try container.decodeIfPresent([String: FlowScriptValue].self, forKey: Key(Role.fieldsKey)))
    }

    /// Writes `{ "<nameField>": ..., "<fieldsKey>": { ... } }` (no fields key for a plain name).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(name, forKey: Key(Role.nameField))
        try container.encodeIfPresent(fields, forKey: Key(Role.fieldsKey))
    }
}

/// A value a script named that the app's route or dialog type cannot represent.
public struct FlowValueConversionError: Error, CustomStringConvertible, Sendable {
    /// What was wrong and what would fit.
    public let description: String

    /// Creates an error.
    public init(_ description: String) {
        self.description = description
    }
}

/// The conversions of `Codable` app types, which ``FlowRouteConvertible`` and
/// ``FlowDialogConvertible`` provide by default.
extension FlowNamedValue {
    /// The value an `Encodable` app value stands for: an enum case's name and its labelled
    /// associated values (unlabelled ones as `_0`, `_1`, ...); a string enum's raw value; a
    /// struct's `nameField` and its other fields.
    init<Value: Encodable>(encoding value: Value) {
        guard let data = try? JSONEncoder().encode(value),
              let shape = try? JSONDecoder().decode(FlowScriptValue.self, from: data) else {
            self.init(name: String(describing: value), fields: nil)
            return
        }
        switch shape {
        case .string(let name):
            self.init(name: name, fields: nil)
        case .table(let fields):
            if case .string(let name)? = fields[Role.nameField] {
                let rest = fields.filter { $0.key != Role.nameField }
                self.init(name: name, fields: rest.isEmpty ? nil : rest)
            } else if fields.count == 1, let (name, payload) = fields.first {
                if case .table(let payloadFields) = payload {
                    self.init(name: name, fields: payloadFields.isEmpty ? nil : payloadFields)
                } else {
                    self.init(name: name, fields: ["_0": payload])
                }
            } else {
                self.init(name: String(describing: Value.self), fields: fields)
            }
        default:
            self.init(name: String(describing: value), fields: nil)
        }
    }

    /// The `Decodable` app value this one names: a string enum's raw value, an enum case, or a
    /// struct with a `nameField` field.
    ///
    /// - Throws: ``FlowValueConversionError`` naming the value and what to check.
    func decode<Value: Decodable>(as type: Value.Type) throws(FlowValueConversionError) -> Value {
        let fields = self.fields ?? [:]
        let asCase = FlowScriptValue.table([name: .table(fields)])
        var shapes: [FlowScriptValue] = fields.isEmpty ? [.string(name)] : []
        shapes += [asCase, .table(fields.merging([Role.nameField: .string(name)]) { _, name in name })]
        var caseError: (any Error)?
        for shape in shapes {
            do {
                return try JSONDecoder().decode(Value.self, from: try JSONEncoder().encode(shape))
            } catch {
                if shape == asCase { caseError = error }
            }
        }
        throw FlowValueConversionError(
            "\(Value.self) has no \(Role.noun) \(self) (check the case name or '\(Role.nameField)' and the \(Role.fieldNoun)s)"
                + (caseError.map { ": \($0)" } ?? ""))
    }
}
