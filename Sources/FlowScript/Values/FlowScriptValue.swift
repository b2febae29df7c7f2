import FlowStackCore
import Foundation

/// A plain value that crosses between Swift and rules scripts: facts, route payloads, dialog
/// tables, host-function arguments and results.
///
/// Booleans, numbers, strings, arrays and string-keyed tables of those; `Hashable` and `Codable`
/// so routes carrying them can be saved and compared.
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

    /// The value as Lua source, for messages (`"42"`, `{ id = "42" }`).
    public var luaSource: String { luaValue.description }

    /// The value as a Lua value.
    public var luaValue: LuaValue {
        switch self {
        case .bool(let value): .boolean(value)
        case .int(let value): .integer(value)
        case .double(let value): .number(value)
        case .string(let value): .string(value)
        case .array(let values): .table(LuaTable(array: values.map(\.luaValue)))
        case .table(let fields):
            .table(LuaTable(fields: Dictionary(uniqueKeysWithValues: fields.map { (LuaTableKey.string($0.key), $0.value.luaValue) })))
        }
    }

    /// Converts a Lua value; `nil` for Lua `nil`, functions, and tables with keys other than
    /// strings or a 1...n sequence.
    public init?(_ value: LuaValue) {
        switch value {
        case .nil, .function: return nil
        case .boolean(let flag): self = .bool(flag)
        case .integer(let number): self = .int(number)
        case .number(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .table(let table):
            if table.fields.isEmpty {
                var items: [FlowScriptValue] = []
                for item in table.array {
                    guard let converted = FlowScriptValue(item) else { return nil }
                    items.append(converted)
                }
                self = table.array.isEmpty ? .table([:]) : .array(items)
                return
            }
            guard table.array.isEmpty else { return nil }
            var fields: [String: FlowScriptValue] = [:]
            for (key, item) in table.fields {
                guard case .string(let name) = key, let converted = FlowScriptValue(item) else { return nil }
                fields[name] = converted
            }
            self = .table(fields)
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
