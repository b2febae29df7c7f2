import Foundation
import Testing
@testable import FlowStackCore

/// Routes and dialogs share one shape (`FlowNamedValue`) and one `Codable` conversion.
@Suite("Named values: routes and dialogs share one shape")
struct NamedValueTests {
    private struct StructRoute: Hashable, Codable, FlowRouteConvertible {
        let name: String
        var id: Int?
    }

    private struct StructDialog: Hashable, Codable, Identifiable, FlowDialogConvertible {
        let id: String
        var item: String?
    }

    private enum CaseRoute: Hashable, Codable, FlowRouteConvertible {
        case home
        case detail(id: String)
    }

    private enum CaseDialog: Hashable, Codable, FlowDialogConvertible {
        case logout
        case deleteConfirmation(item: String)
    }

    @Test("A struct route is named by its 'name' field, as a struct dialog is by its 'id', both ways")
    func structsByNameField() throws {
        let route = StructRoute(name: "home")
        #expect(route.flowRoute == FlowRouteValue("home"))
        #expect(try StructRoute(flowRoute: FlowRouteValue("home")) == route)
        let detailed = StructRoute(name: "detail", id: 7)
        #expect(detailed.flowRoute == FlowRouteValue("detail", ["id": .int(7)]))
        #expect(try StructRoute(flowRoute: detailed.flowRoute) == detailed)

        let dialog = StructDialog(id: "sale", item: "42")
        #expect(dialog.flowDialog == FlowDialogValue(id: "sale", fields: ["item": .string("42")]))
        #expect(try StructDialog(flowDialog: dialog.flowDialog) == dialog)
    }

    @Test("Enum routes and dialogs convert by case name and labelled values, both ways")
    func enumsByCase() throws {
        #expect(CaseRoute.detail(id: "9").flowRoute == FlowRouteValue("detail", ["id": .string("9")]))
        #expect(try CaseRoute(flowRoute: FlowRouteValue("home")) == .home)
        #expect(CaseDialog.deleteConfirmation(item: "3").flowDialog == FlowDialogValue(id: "deleteConfirmation", fields: ["item": .string("3")]))
        #expect(try CaseDialog(flowDialog: FlowDialogValue(id: "logout")) == .logout)
    }

    @Test("A route and a dialog the type cannot represent throw the one conversion error, naming the value")
    func oneConversionError() {
        #expect(FlowRouteConversionError.self == FlowDialogConversionError.self)
        do {
            _ = try CaseRoute(flowRoute: FlowRouteValue("nosuch"))
            Issue.record("no error")
        } catch {
            #expect("\(error)".hasPrefix("CaseRoute has no route nosuch (check the case name or 'name'"), "\(error)")
        }
        do {
            _ = try CaseDialog(flowDialog: FlowDialogValue(id: "nosuch"))
            Issue.record("no error")
        } catch {
            #expect("\(error)".hasPrefix("CaseDialog has no dialog \"nosuch\" (check the case name or 'id'"), "\(error)")
        }
    }

    @Test("A plain route equals its table form; a plain dialog stays plain")
    func plainForms() {
        #expect(FlowRouteValue(name: "home", fields: nil) == FlowRouteValue("home"))
        #expect(FlowRouteValue("home").fields == [:])
        #expect(FlowDialogValue(id: "logout").fields == nil)
        #expect(FlowDialogValue(id: "logout") != FlowDialogValue(id: "logout", fields: [:]))
    }

    @Test("Descriptions: a route compact, a dialog as Lua source")
    func descriptions() {
        #expect(FlowRouteValue("detail", ["id": .string("42")]).description == "detail{id=\"42\"}")
        #expect(FlowRouteValue("home").description == "home")
        #expect(FlowDialogValue(id: "logout").description == "\"logout\"")
        #expect(FlowDialogValue(id: "sale", fields: ["item": .int(3)]).description == "{ id = \"sale\", item = 3 }")
    }

    @Test("The Codable forms keep their keys: name and payload for a route, id and fields for a dialog")
    func codableForms() throws {
        let route = FlowRouteValue("detail", ["id": .string("42")])
        let routeJSON = try JSONSerialization.jsonObject(with: JSONEncoder().encode(route)) as? [String: Any]
        #expect(Set(routeJSON?.keys.map { $0 } ?? []) == ["name", "payload"])
        #expect(try JSONDecoder().decode(FlowRouteValue.self, from: JSONEncoder().encode(route)) == route)

        let plain = FlowDialogValue(id: "logout")
        let plainJSON = try JSONSerialization.jsonObject(with: JSONEncoder().encode(plain)) as? [String: Any]
        #expect(Set(plainJSON?.keys.map { $0 } ?? []) == ["id"])
        let dialog = FlowDialogValue(id: "sale", fields: ["item": .int(3)])
        #expect(try JSONDecoder().decode(FlowDialogValue.self, from: JSONEncoder().encode(dialog)) == dialog)
        #expect(try JSONDecoder().decode(FlowDialogValue.self, from: JSONEncoder().encode(plain)) == plain)
    }
}
