import FlowLua
import FlowStackCore
import Foundation

/// Reading and writing routes and dialogs as scripts give them.
extension FlowNamedValue {
    /// Reads a value from a script: a non-empty string (the name), or a table with a non-empty
    /// string `Role.nameField` and other fields with string keys (their numbers finite at any
    /// depth: values are compared, hashed and encoded, and NaN equals nothing).
    package init(lua value: LuaValue) throws(FlowScriptError) {
        let noun = Role.noun, key = Role.nameField
        switch value {
        case .string(let name) where !name.isEmpty:
            self.init(name: name, fields: nil)
        case .table(let table):
            guard case .string(let name)? = table.fields[.string(key)], !name.isEmpty else {
                throw FlowScriptError(kind: .typeError, message: "a \(noun) table needs a string '\(key)' field, got \(value)")
            }
            let what = "\(noun) '\(name)': \(Role.fieldNoun)"
            var fields: [String: FlowScriptValue] = [:]
            for (tableKey, field) in table.fields {
                guard case .string(let label) = tableKey else {
                    throw FlowScriptError(kind: .typeError, message: "\(what) names must be strings, got \(tableKey)")
                }
                guard label != key else { continue }
                if let problem = Self.nonFinite(field) {
                    throw FlowScriptError(kind: .typeError, message: "\(what) '\(label)' must be a finite number, got \(problem)")
                }
                guard let converted = FlowScriptValue(field) else {
                    throw FlowScriptError(
                        kind: .typeError, message: "\(what) '\(label)' must be a boolean, number, string or table of those")
                }
                fields[label] = converted
            }
            guard table.array.isEmpty else {
                throw FlowScriptError(kind: .typeError, message: "\(what)s need names, not positions")
            }
            self.init(name: name, fields: fields)
        default:
            throw FlowScriptError(
                kind: .typeError,
                message: "expected a \(noun) (its \(key) as a string, or a table with a string '\(key)'), got \(value.typeName)")
        }
    }

    /// The value as scripts gave it: the name string for a plain name, else the table.
    package var luaValue: LuaValue {
        guard let fields else { return .string(name) }
        var table = LuaTable()
        table[Role.nameField] = .string(name)
        for (key, value) in fields where key != Role.nameField { table[key] = value.luaValue }
        return .table(table)
    }

    /// `nan`, `inf` or `-inf` when `value` is, or holds (at any depth), a number that is not
    /// finite.
    static func nonFinite(_ value: LuaValue, depth: Int = 0) -> String? {
        switch value {
        case .number(let number) where !number.isFinite:
            return number.isNaN ? "nan" : (number > 0 ? "inf" : "-inf")
        case .table(let table) where depth < 100:
            for item in table.array { if let problem = nonFinite(item, depth: depth + 1) { return problem } }
            for item in table.fields.values { if let problem = nonFinite(item, depth: depth + 1) { return problem } }
            return nil
        default:
            return nil
        }
    }
}
