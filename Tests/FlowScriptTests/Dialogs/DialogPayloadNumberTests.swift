import FlowStackCore
import Foundation
import Testing
@testable import FlowLua
@testable import FlowScript

/// Dialog payloads follow route payloads' number rules: NaN and infinity are refused at any
/// depth, with the same wording.
@Suite("Dialog payloads: numbers")
@MainActor
struct DialogPayloadNumberTests {
    @Test("NaN and infinity are refused in a dialog's fields, at any depth, as in a route's payload", arguments: [
        (LuaValue.number(.nan), "nan"),
        (LuaValue.number(.infinity), "inf"),
        (LuaValue.number(-.infinity), "-inf"),
        (LuaValue.table(LuaTable(array: [.integer(1), .number(.nan)])), "nan"),
        (["deeper": ["deepest": .number(.infinity)]] as LuaValue, "inf"),
    ])
    func nonFiniteRefused(value: LuaValue, shown: String) throws {
        var table = LuaTable()
        table["id"] = "sale"
        table["amount"] = value
        #expect(throws: FlowScriptError.self) { try FlowDialogValue(lua: .table(table)) }
        do {
            _ = try FlowDialogValue(lua: .table(table))
        } catch {
            #expect(error.message == "dialog 'sale': field 'amount' must be a finite number, got \(shown)")
        }
        var route = LuaTable()
        route["name"] = "sale"
        route["amount"] = value
        do {
            _ = try FlowRouteValue(lua: .table(route))
            Issue.record("the route payload was accepted")
        } catch {
            #expect(error.message == "route 'sale': payload field 'amount' must be a finite number, got \(shown)")
        }
    }

    @Test("Finite numbers still pass")
    func finiteAccepted() throws {
        var table = LuaTable()
        table["id"] = "sale"
        table["amount"] = .number(2.5)
        table["nested"] = ["count": .integer(3)]
        let dialog = try FlowDialogValue(lua: .table(table))
        #expect(dialog.fields?["amount"] == .double(2.5))
    }

    @Test("A rule that redirects to a dialog with NaN in it fails, at its file:line, and shows nothing")
    func ruleRedirectRefused() throws {
        let rig = try DialogRig("""
            flow.guard("orders", function()
              return flow.redirect("dialog", { id = "sale", amount = { 0/0 } }, "nan")
            end)
            """)
        let result = rig.router.perform(.push(FlowRouteValue("orders"), target: .active))
        #expect(!result.isApplied)
        #expect(rig.router.globalDialog == nil)
        #expect(result.reason?.contains("field 'amount' must be a finite number, got nan") == true, "\(result.reason ?? "")")
        #expect(result.reason?.contains("rules/dialogs.lua:") == true, "\(result.reason ?? "")")
    }
}
