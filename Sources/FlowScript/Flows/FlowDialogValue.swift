import FlowStackCore
import Foundation

/// A global dialog as flow scripts show it: a string id (`"networkError"`) or a table with an
/// `id` field and any other fields (`{ id = "deleteConfirmation", item = "42" }`).
///
/// The dialog type of the routers the flow-test runner drives. It is `Identifiable` by its id,
/// so rules see `ctx.dialog` as the id string.
public struct FlowDialogValue: Hashable, Sendable, Identifiable, CustomStringConvertible {
    /// The dialog's id.
    public let id: String
    /// The table's other fields, or `nil` when the dialog was given as a string.
    public let fields: [String: FlowScriptValue]?

    /// Creates a dialog; `fields` is `nil` for a dialog given as a plain id.
    public init(id: String, fields: [String: FlowScriptValue]? = nil) {
        self.id = id
        self.fields = fields
    }

    /// Reads a dialog from a script: a non-empty string, or a table with a string `id`.
    public init(lua value: LuaValue) throws(FlowScriptError) {
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
    public var luaValue: LuaValue {
        guard let fields else { return .string(id) }
        var table = LuaTable()
        table["id"] = .string(id)
        for (key, value) in fields { table[key] = value.luaValue }
        return .table(table)
    }

    /// The dialog as Lua source.
    public var description: String { luaValue.description }
}
