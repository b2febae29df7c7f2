import FlowStackCore
import Testing
@testable import FlowScript

/// Routes and dialogs are read from and written to Lua by one conversion.
@Suite("Named values in Lua: one conversion for routes and dialogs")
struct NamedValueLuaTests {
    @Test("A string or a table with the name field reads as the value; the table's other fields as its fields")
    func reads() throws {
        #expect(try FlowRouteValue(lua: "home") == FlowRouteValue("home"))
        #expect(try FlowRouteValue(lua: .table(LuaTable(fields: ["name": "detail", "id": "42"]))) == FlowRouteValue("detail", ["id": .string("42")]))
        #expect(try FlowDialogValue(lua: "logout") == FlowDialogValue(id: "logout"))
        #expect(try FlowDialogValue(lua: .table(LuaTable(fields: ["id": "sale", "item": 3]))) == FlowDialogValue(id: "sale", fields: ["item": .int(3)]))
    }

    @Test("Both write back as scripts gave them: a route as a table, a plain dialog as its id")
    func writes() {
        #expect(FlowRouteValue("home").luaValue == .table(LuaTable(fields: ["name": "home"])))
        #expect(FlowRouteValue("home").luaTable == LuaTable(fields: ["name": "home"]))
        #expect(FlowDialogValue(id: "logout").luaValue == .string("logout"))
        #expect(FlowDialogValue(id: "sale", fields: ["item": .int(3)]).luaValue == .table(LuaTable(fields: ["id": "sale", "item": 3])))
    }

    @Test("The same mistakes get the same messages, in each one's words", arguments: [
        (LuaValue.table(LuaTable(fields: ["title": "x"])), "a route table needs a string 'name' field", "a dialog table needs a string 'id' field"),
        (LuaValue.number(1), "expected a route (its name as a string, or a table with a string 'name'), got number",
         "expected a dialog (its id as a string, or a table with a string 'id'), got number"),
    ])
    func sameMistakes(value: LuaValue, route: String, dialog: String) {
        #expect(message { () throws(FlowScriptError) in _ = try FlowRouteValue(lua: value) }?.hasPrefix(route) == true)
        #expect(message { () throws(FlowScriptError) in _ = try FlowDialogValue(lua: value) }?.hasPrefix(dialog) == true)
    }

    @Test("A dialog table with positional entries is refused as a route table is")
    func positionalFieldsRefused() {
        let routeTable = LuaTable(array: ["extra"], fields: ["name": "detail"])
        let dialogTable = LuaTable(array: ["extra"], fields: ["id": "sale"])
        #expect(message { () throws(FlowScriptError) in _ = try FlowRouteValue(lua: .table(routeTable)) }
            == "route 'detail': payload fields need names, not positions")
        #expect(message { () throws(FlowScriptError) in _ = try FlowDialogValue(lua: .table(dialogTable)) }
            == "dialog 'sale': fields need names, not positions")
    }

    private func message(_ body: () throws(FlowScriptError) -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            return error.message
        }
    }
}
