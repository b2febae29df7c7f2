/// A key of a Lua table as seen from Swift: a string or an integer.
package enum LuaTableKey: Hashable, Sendable, Comparable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    CustomStringConvertible
{
    /// A string key.
    case string(String)
    /// An integer key (outside the table's array part).
    case integer(Int)

    /// A string literal as a string key.
    package init(stringLiteral value: String) { self = .string(value) }
    /// An integer literal as an integer key.
    package init(integerLiteral value: Int) { self = .integer(value) }

    /// Integer keys first (ascending), then string keys (ascending): a stable display order.
    package static func < (lhs: LuaTableKey, rhs: LuaTableKey) -> Bool {
        switch (lhs, rhs) {
        case let (.integer(a), .integer(b)): return a < b
        case let (.string(a), .string(b)): return a < b
        case (.integer, .string): return true
        case (.string, .integer): return false
        }
    }

    /// The key as written in a Lua table constructor (`name` or `[10]` or `["two words"]`).
    package var description: String {
        switch self {
        case .integer(let value): return "[\(value)]"
        case .string(let value): return FlowLuaSourceText.key(value)
        }
    }
}

/// A Lua table converted to Swift: the sequence `t[1]...t[n]` and every other key.
///
/// Setting values through the subscripts keeps the split normal: integer keys that extend the
/// sequence go to `array`, and `nil` values remove keys.
package struct LuaTable: Sendable, Equatable {
    /// The values of keys 1...n, where n is the largest such run without a nil.
    package var array: [LuaValue]
    /// Every other key.
    package var fields: [LuaTableKey: LuaValue]

    /// Creates an empty table.
    package init() {
        self.array = []
        self.fields = [:]
    }

    /// Creates a table from its two parts.
    package init(array: [LuaValue], fields: [LuaTableKey: LuaValue] = [:]) {
        self.array = array
        self.fields = fields
    }

    /// Creates a table with no array part.
    package init(fields: [LuaTableKey: LuaValue]) {
        self.init(array: [], fields: fields)
    }

    /// Whether the table has no keys at all.
    package var isEmpty: Bool { array.isEmpty && fields.isEmpty }

    /// The value of a string key; `.nil` when missing. Setting `.nil` removes the key.
    package subscript(key: String) -> LuaValue {
        get { fields[.string(key)] ?? .nil }
        set { self[key: .string(key)] = newValue }
    }

    /// The value of any key; `.nil` when missing. Setting `.nil` removes the key.
    package subscript(key key: LuaTableKey) -> LuaValue {
        get {
            if case .integer(let index) = key, index >= 1, index <= array.count { return array[index - 1] }
            return fields[key] ?? .nil
        }
        set {
            guard case .integer(let index) = key, index >= 1, index <= array.count + 1 else {
                fields[key] = newValue.isNil ? nil : newValue
                return
            }
            if index <= array.count {
                if newValue.isNil {
                    // Keys after a hole leave the sequence.
                    for (offset, value) in array[index...].enumerated() { fields[.integer(index + 1 + offset)] = value }
                    array.removeSubrange((index - 1)...)
                } else {
                    array[index - 1] = newValue
                }
            } else if !newValue.isNil {
                array.append(newValue)
                while let next = fields.removeValue(forKey: .integer(array.count + 1)) { array.append(next) }
            }
        }
    }

    /// The same table with integer keys that continue the sequence moved into `array` (and
    /// nils dropped), so two tables with the same keys and values have the same parts.
    package func normalized() -> LuaTable {
        var copy = LuaTable()
        for (offset, value) in array.enumerated() { copy[key: .integer(offset + 1)] = value }
        for (key, value) in fields { copy[key: key] = value }
        return copy
    }
}

extension LuaTable: ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral {
    /// A table with string keys.
    package init(dictionaryLiteral elements: (String, LuaValue)...) {
        self.init()
        for (key, value) in elements { self[key] = value }
    }

    /// A sequence.
    package init(arrayLiteral elements: LuaValue...) {
        self.init(array: elements)
    }
}
