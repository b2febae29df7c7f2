/// A Lua value converted to Swift: the value types Lua scripts exchange with the host.
///
/// Lua's integer and float subtypes stay distinct (`.integer(1)` and `.number(1.0)`), as in
/// Lua 5.4; `==` is structural, while `isDeepEqual(to:)` follows Lua's rules (1 == 1.0).
package enum LuaValue: Sendable, Equatable {
    /// Lua's `nil`.
    case `nil`
    /// A boolean.
    case boolean(Bool)
    /// An integer (Lua's integer subtype).
    case integer(Int)
    /// A float (Lua's float subtype).
    case number(Double)
    /// A string (Lua strings are bytes; invalid UTF-8 is repaired on the way to Swift).
    case string(String)
    /// A table, as an array part and a hash part.
    case table(LuaTable)
    /// A Lua function, held by a reference into the VM that created it.
    case function(LuaFunctionRef)

    /// Lua's type name for the value (`"nil"`, `"boolean"`, `"number"`, `"string"`, `"table"`, `"function"`).
    package var typeName: String {
        switch self {
        case .nil: return "nil"
        case .boolean: return "boolean"
        case .integer, .number: return "number"
        case .string: return "string"
        case .table: return "table"
        case .function: return "function"
        }
    }

    /// Whether Lua treats the value as true (everything but `nil` and `false`).
    package var isTruthy: Bool {
        switch self {
        case .nil, .boolean(false): return false
        default: return true
        }
    }

    /// Whether the value is `nil`.
    package var isNil: Bool { self == .nil }

    /// The string, if the value is one.
    package var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The boolean, if the value is one.
    package var boolValue: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    /// The integer, if the value is an integer or a float with an exact integer value.
    package var intValue: Int? {
        switch self {
        case .integer(let value): return value
        case .number(let value): return Int(exactly: value)
        default: return nil
        }
    }

    /// The number as a Double, if the value is a number.
    package var doubleValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .number(let value): return value
        default: return nil
        }
    }

    /// The table, if the value is one.
    package var tableValue: LuaTable? {
        if case .table(let value) = self { return value }
        return nil
    }

    /// The function reference, if the value is a function.
    package var functionValue: LuaFunctionRef? {
        if case .function(let value) = self { return value }
        return nil
    }

    /// Field `key` of a table value; `.nil` for a missing field or a value that is not a table.
    package subscript(key: String) -> LuaValue {
        tableValue?[key] ?? .nil
    }
}

// Not ExpressibleByNilLiteral on purpose: `fields[key] == nil` must keep meaning "absent".
extension LuaValue: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// A boolean literal as a Lua value.
    package init(booleanLiteral value: Bool) { self = .boolean(value) }
    /// An integer literal as a Lua integer.
    package init(integerLiteral value: Int) { self = .integer(value) }
    /// A float literal as a Lua float.
    package init(floatLiteral value: Double) { self = .number(value) }
    /// A string literal as a Lua string.
    package init(stringLiteral value: String) { self = .string(value) }
    /// An array literal as a Lua sequence.
    package init(arrayLiteral elements: LuaValue...) { self = .table(LuaTable(array: elements)) }
    /// A dictionary literal as a Lua table with string keys.
    package init(dictionaryLiteral elements: (String, LuaValue)...) {
        var table = LuaTable()
        for (key, value) in elements { table[key] = value }
        self = .table(table)
    }
}
