import Foundation

/// A plain value that crosses between Swift and rules scripts: facts, route payloads, dialog
/// tables, host-function arguments and results.
///
/// Booleans, numbers, strings, arrays and string-keyed tables of those; `Hashable` and `Codable`
/// so routes carrying them can be saved and compared. (Lives in the core so that dialogs the
/// router hands to the rules carry their payload; the Lua conversions are in FlowScript.)
public enum FlowScriptValue: Hashable, Sendable {
    /// A boolean.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// A floating-point number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array (a Lua sequence).
    case array([FlowScriptValue])
    /// A table with string keys.
    case table([String: FlowScriptValue])

    /// The type name as Lua scripts and manifests write it.
    public var typeName: String {
        switch self {
        case .bool: "boolean"
        case .int: "integer"
        case .double: "number"
        case .string: "string"
        case .array, .table: "table"
        }
    }

    /// The value as style rules hand it to the core's attribute parser.
    public var styleValue: FlowStyleValue {
        switch self {
        case .bool(let value): .bool(value)
        case .int(let value): .number(Double(value))
        case .double(let value): .number(value)
        case .string(let value): .string(value)
        case .array(let values): .array(values.map(\.styleValue))
        case .table(let fields): .table(fields.mapValues(\.styleValue))
        }
    }
}

extension FlowScriptValue: Codable {
    /// Decodes a JSON-like value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) { self = .bool(flag) }
        else if let number = try? container.decode(Int.self) { self = .int(number) }
        else if let number = try? container.decode(Double.self) { self = .double(number) }
        else if let text = try? container.decode(String.self) { self = .string(text) }
        else if let items = try? container.decode([FlowScriptValue].self) { self = .array(items) }
        else if let fields = try? container.decode([String: FlowScriptValue].self) { self = .table(fields) }
        else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected a boolean, number, string, array or table")
        }
    }

    /// Encodes as a JSON-like value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .table(let fields): try container.encode(fields)
        }
    }
}

extension FlowScriptValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A boolean literal.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// A floating-point literal.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array literal.
    public init(arrayLiteral elements: FlowScriptValue...) { self = .array(elements) }
    /// A dictionary literal with string keys.
    public init(dictionaryLiteral elements: (String, FlowScriptValue)...) {
        self = .table(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension FlowScriptValue: CustomStringConvertible {
    /// The value for messages and route descriptions: `true`, `42`, `"42"`, `{ "a", "b" }`,
    /// `{ id = "42" }` (table keys sorted; strings and unusual keys quoted with Swift's escapes,
    /// so no value can break a line).
    public var description: String {
        switch self {
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return "\(value)"
        case .string(let value): return value.debugDescription
        case .array(let values):
            return values.isEmpty ? "{}" : "{ " + values.map(\.description).joined(separator: ", ") + " }"
        case .table(let fields):
            if fields.isEmpty { return "{}" }
            return "{ " + fields.keys.sorted().map { "\(Self.key($0)) = \(fields[$0]!)" }.joined(separator: ", ") + " }"
        }
    }

    /// A table key as `description` writes it: bare when it is letters, digits and `_`, else quoted.
    private static func key(_ name: String) -> String {
        !name.isEmpty && name.unicodeScalars.allSatisfy { $0 == "_" || ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0) }
            ? name : name.debugDescription
    }
}
