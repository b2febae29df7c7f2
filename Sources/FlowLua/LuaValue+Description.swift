
extension LuaValue: CustomStringConvertible {
    /// The value written as Lua source: `{ name = "detail", id = "42" }`, with keys in a stable order.
    package var description: String {
        switch self {
        case .nil: return "nil"
        case .boolean(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .number(let value):
            if value.isNaN { return "0/0" }
            if value.isInfinite { return value > 0 ? "math.huge" : "-math.huge" }
            return "\(value)"
        case .string(let value): return FlowLuaSourceText.string(value)
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
}
