import FlowLua
import FlowStackCore
import Foundation

extension FlowNamedValue where Role == FlowRouteRole {
    /// The route as a Lua table (a route is always one; see `init(lua:)` for reading one).
    package var luaTable: LuaTable {
        var fields: [LuaTableKey: LuaValue] = ["name": .string(name)]
        for (key, value) in payload where key != "name" {
            fields[.string(key)] = value.luaValue
        }
        return LuaTable(fields: fields)
    }
}
