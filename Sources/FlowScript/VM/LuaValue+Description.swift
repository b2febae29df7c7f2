extension LuaValue: CustomStringConvertible {
    /// The value written as Lua source: `{ name = "detail", id = "42" }`, with keys in a stable order.
    public var description: String {
        switch self {
        case .nil: return "nil"
        case .boolean(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .number(let value):
            if value.isNaN { return "0/0" }
            if value.isInfinite { return value > 0 ? "math.huge" : "-math.huge" }
            return "\(value)"
        case .string(let value): return LuaValue.quoted(value)
        case .function: return "function"
        case .table(let table):
            if table.isEmpty { return "{}" }
            var parts = table.array.map(\.description)
            for key in table.fields.keys.sorted() {
                parts.append("\(key) = \(table.fields[key]!.description)")
            }
            return "{ " + parts.joined(separator: ", ") + " }"
        }
    }

    /// Whether `name` can be written as a bare field name in Lua.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        let reserved: Set<String> = [
            "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in",
            "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
        ]
        return !reserved.contains(name) && name.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }

    /// `value` as a double-quoted Lua string literal.
    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\\(scalar.value)"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
