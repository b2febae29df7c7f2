extension LuaValue {
    /// Deep equality with Lua's rules: numbers compare by value (`1 == 1.0`), tables key by key
    /// whatever their array/hash split, functions by reference.
    package func isDeepEqual(to other: LuaValue) -> Bool {
        switch (self, other) {
        case (.nil, .nil): return true
        case let (.boolean(a), .boolean(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.integer(a), .number(b)), let (.number(b), .integer(a)):
            return Double(a) == b && Int(exactly: b) == a
        case let (.function(a), .function(b)): return a === b
        case let (.table(a), .table(b)): return a.isDeepEqual(to: b)
        default: return false
        }
    }
}

extension LuaTable {
    /// Deep equality with Lua's rules (see `LuaValue.isDeepEqual(to:)`).
    package func isDeepEqual(to other: LuaTable) -> Bool {
        let lhs = normalized(), rhs = other.normalized()
        guard lhs.array.count == rhs.array.count, lhs.fields.count == rhs.fields.count else { return false }
        for (a, b) in zip(lhs.array, rhs.array) where !a.isDeepEqual(to: b) { return false }
        for (key, value) in lhs.fields {
            guard let match = rhs.fields[key], value.isDeepEqual(to: match) else { return false }
        }
        return true
    }
}
