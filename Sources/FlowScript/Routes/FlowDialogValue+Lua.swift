import FlowLua
import FlowStackCore
import Foundation

/// Reading and writing dialogs as scripts give them.
extension FlowDialogValue {
    /// Reads a dialog from a script: a non-empty string, or a table with a string `id` (its
    /// numbers finite at any depth, as in route payloads).
    package init(lua value: LuaValue) throws(FlowScriptError) {
        switch value {
        case .string(let id) where !id.isEmpty:
            self.init(id: id)
        case .table(let table):
            guard case .string(let id)? = table.fields["id"], !id.isEmpty else {
                throw FlowScriptError(kind: .typeError, message: "a dialog table needs a string 'id' field, got \(value)")
            }
            var fields: [String: FlowScriptValue] = [:]
            for (key, field) in table.fields {
                guard case .string(let name) = key else {
                    throw FlowScriptError(kind: .typeError, message: "dialog '\(id)': field names must be strings, got \(key)")
                }
                guard name != "id" else { continue }
                // The same number rule as route payloads: NaN equals nothing and neither encodes.
                if let problem = FlowRouteValue.nonFinite(field) {
                    throw FlowScriptError(
                        kind: .typeError, message: "dialog '\(id)': field '\(name)' must be a finite number, got \(problem)")
                }
                guard let converted = FlowScriptValue(field) else {
                    throw FlowScriptError(
                        kind: .typeError,
                        message: "dialog '\(id)': field '\(name)' must be a boolean, number, string or table of those")
                }
                fields[name] = converted
            }
            self.init(id: id, fields: fields)
        default:
            throw FlowScriptError(
                kind: .typeError, message: "expected a dialog (an id string or a table with an 'id'), got \(value.typeName)")
        }
    }

    /// The dialog as scripts gave it: the id string, or the table.
    package var luaValue: LuaValue {
        guard let fields else { return .string(id) }
        var table = LuaTable()
        table["id"] = .string(id)
        for (key, value) in fields { table[key] = value.luaValue }
        return .table(table)
    }
}

extension FlowDialogValue: CustomStringConvertible {
    /// The dialog as Lua source.
    public var description: String { luaValue.description }
}
