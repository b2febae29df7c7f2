import FlowLua
import FlowStackCore
import Foundation

extension FlowScriptValue {
    /// The value as Lua source, for messages and written flows (`"42"`, `{ id = "42" }`; table
    /// keys sorted): what `LuaValue` prints, so one printer quotes every Lua literal.
    package var luaSource: String { luaValue.description }

    /// The value as a Lua value.
    package var luaValue: LuaValue {
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
    package init?(_ value: LuaValue) {
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
}
