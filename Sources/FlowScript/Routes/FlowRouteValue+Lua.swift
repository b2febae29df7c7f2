import FlowLua
import FlowStackCore
import Foundation

extension FlowRouteValue {
    /// The route as a Lua table.
    package var luaTable: LuaTable {
        var fields: [LuaTableKey: LuaValue] = ["name": .string(name)]
        for (key, value) in payload where key != "name" {
            fields[.string(key)] = value.luaValue
        }
        return LuaTable(fields: fields)
    }

    /// Reads a route from a script: a string (`"home"`) or a table with a string `name`.
    package init(lua value: LuaValue) throws(FlowScriptError) {
        switch value {
        case .string(let name) where !name.isEmpty:
            self.init(name)
        case .table(let table):
            guard case .string(let name)? = table.fields["name"], !name.isEmpty else {
                throw FlowScriptError(kind: .typeError, message: "a route table needs a string 'name' field, got \(value)")
            }
            var payload: [String: FlowScriptValue] = [:]
            for (key, field) in table.fields {
                guard case .string(let label) = key else {
                    throw FlowScriptError(kind: .typeError, message: "route '\(name)': payload keys must be strings, got \(key)")
                }
                guard label != "name" else { continue }
                if let problem = Self.nonFinite(field) {
                    throw FlowScriptError(
                        kind: .typeError, message: "route '\(name)': payload field '\(label)' must be a finite number, got \(problem)")
                }
                guard let converted = FlowScriptValue(field) else {
                    throw FlowScriptError(kind: .typeError, message: "route '\(name)': payload field '\(label)' must be a boolean, number, string or table of those")
                }
                payload[label] = converted
            }
            guard table.array.isEmpty else {
                throw FlowScriptError(kind: .typeError, message: "route '\(name)': payload fields need names, not positions")
            }
            self.init(name, payload)
        default:
            throw FlowScriptError(kind: .typeError, message: "expected a route (a name string or a table with a 'name'), got \(value.typeName)")
        }
    }
}

extension FlowRouteValue {
    /// `nan`, `inf` or `-inf` when `value` is, or holds (at any depth), a number that is not
    /// finite: route parameters are compared, hashed and encoded, and NaN equals nothing.
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
