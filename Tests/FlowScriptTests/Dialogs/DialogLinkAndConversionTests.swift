import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// An app dialog type with the `Codable` default conversion.
enum AppDialog: Codable, Hashable, FlowDialogConvertible {
    case networkError
    case deleteConfirmation(item: String)
    case loginRequired
}

/// An `Identifiable` app dialog with a `String` id (rules can guard it, not build it).
struct Banner: Identifiable, Hashable, FlowDialogConvertible {
    let id: String
}

/// A `Codable` struct dialog with an `id` field.
struct Notice: Codable, Hashable, FlowDialogConvertible {
    let id: String
    let count: Int
}

/// Deep links ending with a dialog, and app dialog types crossing into the rules.
@Suite("Dialog rules: links and dialog conversion")
@MainActor
struct DialogLinkAndConversionTests {
    static let links = """
        flow.deeplink("/invites/:code", function(p)
          return { flow.op("showDialog", { id = "invite", code = p.code }, "queue"), flow.op("push", "inbox") }
        end)
        flow.deeplink("/only-dialog", function() return { flow.op("showDialog", "hello") } end)
        flow.deeplink("/blocked", function() return { flow.op("push", "secret"), flow.op("showDialog", "hello") } end)
        flow.deeplink("/answered", function() return { flow.op("push", "orders") } end)
        flow.guard("secret", function() return false, "no" end)
        flow.guard("orders", function() return flow.redirect("dialog", "loginRequired", "login required") end)
        flow.dialog_guard("*", function(dialog) host.seen(dialog.id .. ":" .. dialog.source) end)
        """

    func rig() throws -> (DialogRig, () -> [String]) {
        let rig = try DialogRig(Self.links)
        final class Seen { var ids: [String] = [] }
        let seen = Seen()
        rig.engine.registerHost("seen") { arguments in
            if case .string(let id)? = arguments.first ?? nil { seen.ids.append(id) }
            return []
        }
        return (rig, { seen.ids })
    }

    @Test("A plan's showDialog step is shown after its navigation steps, through the dialog rules (source deeplink)")
    func planDialogAfterNavigation() throws {
        let (rig, seen) = try rig()
        let result = rig.router.open(url: try #require(URL(string: "myapp://invites/abc")))
        #expect(result.status == .applied, "\(result.reason ?? "")")
        #expect(rig.router.activeStack.path == [FlowRouteValue("inbox")])
        #expect(rig.router.globalDialog == FlowDialogValue(id: "invite", fields: ["code": "abc"]))
        #expect(result.dialogs.map(\.applied) == [true])
        #expect(result.plan?.dialogs == [FlowDialogRedirect(dialog: FlowDialogValue(id: "invite", fields: ["code": "abc"]), policy: .queue)])
        #expect(seen() == ["invite:deeplink"])
        #expect(rig.router.history.last?.source == .deeplink)
        let only = rig.router.open(url: try #require(URL(string: "myapp://only-dialog")))
        #expect(only.status == .applied)
        #expect(rig.router.globalDialog?.id == "hello")
    }

    @Test("A plan that does not apply shows none of its dialogs")
    func blockedPlanShowsNoDialog() throws {
        let (rig, seen) = try rig()
        let result = rig.router.open(url: try #require(URL(string: "myapp://blocked")))
        #expect(result.status == .pending)
        #expect(result.dialogs.isEmpty)
        #expect(rig.router.globalDialog == nil)
        #expect(seen().isEmpty)
    }

    @Test("A plan step answered with a dialog blocks the plan; the dialog is shown once the plan is rolled back")
    func planStepAnsweredWithDialog() throws {
        let (rig, seen) = try rig()
        let result = rig.router.open(url: try #require(URL(string: "myapp://answered")))
        #expect(result.status == .pending)
        #expect(result.transaction?.failure?.dialogRedirect?.applied == false)
        #expect(result.dialogRedirect?.applied == true)
        #expect(rig.router.globalDialog?.id == "loginRequired")
        #expect(seen() == ["loginRequired:rules"])
    }

    @Test("A showDialog step naming an undeclared dialog leaves the link unhandled with file:line and did you mean")
    func planDialogChecked() throws {
        let manifest = FlowManifest(routes: ["home": .init()], dialogs: ["inviteAccepted"])
        let engine = try FlowRulesEngine<FlowRouteValue>(
            sources: [FlowRulesSource(name: "rules/links.lua", text: """
                flow.deeplink("/invites/:code", function(p)
                  return { flow.op("showDialog", "inviteAccepted", "sometimes") }
                end)
                flow.deeplink("/typo", function(p)
                  return { flow.op("showDialog", "inviteAcepted") }
                end)
                """)],
            configuration: FlowRulesConfiguration(manifest: manifest))
        let router = DialogRouter(root: FlowRouteValue("home"))
        engine.install(into: router)
        let policy = router.open(url: try #require(URL(string: "myapp://invites/1")))
        #expect(policy.status == .unhandled)
        #expect(policy.reason?.contains("rules/links.lua:2") == true, "\(policy.reason ?? "")")
        #expect(policy.reason?.contains("unknown dialog policy") == true)
        let typo = router.open(url: try #require(URL(string: "myapp://typo")))
        #expect(typo.status == .unhandled)
        #expect(typo.reason?.contains("did you mean 'inviteAccepted'") == true, "\(typo.reason ?? "")")
        #expect(router.globalDialog == nil)
    }

    @Test("Codable enum dialogs convert both ways: the case name is the id, labelled values the fields")
    func codableEnum() throws {
        #expect(AppDialog.networkError.flowDialog == FlowDialogValue(id: "networkError"))
        #expect(AppDialog.deleteConfirmation(item: "42").flowDialog == FlowDialogValue(id: "deleteConfirmation", fields: ["item": "42"]))
        #expect(try AppDialog(flowDialog: FlowDialogValue(id: "deleteConfirmation", fields: ["item": "7"])) == .deleteConfirmation(item: "7"))
        #expect(try AppDialog(flowDialog: FlowDialogValue(id: "loginRequired")) == .loginRequired)
        #expect(throws: FlowDialogConversionError.self) { try AppDialog(flowDialog: FlowDialogValue(id: "nope")) }
    }

    @Test("Identifiable dialogs with a String id go to the rules by id; Codable structs by their id field")
    func identifiableAndStruct() throws {
        #expect(Banner(id: "sale").flowDialog == FlowDialogValue(id: "sale"))
        #expect(throws: FlowDialogConversionError.self) { try Banner(flowDialog: FlowDialogValue(id: "sale")) }
        #expect(Notice(id: "n", count: 2).flowDialog == FlowDialogValue(id: "n", fields: ["count": 2]))
        #expect(try Notice(flowDialog: FlowDialogValue(id: "n", fields: ["count": 3])) == Notice(id: "n", count: 3))
    }

    @Test("A router of app dialogs consults the rules; a rule's dialog is built as the app's type")
    func appDialogRouter() throws {
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [FlowRulesSource(name: "rules/app.lua", text: """
            flow.dialog_guard("networkError", function() return flow.redirect("dialog", { id = "deleteConfirmation", item = "9" }) end)
            flow.guard("orders", function() return flow.redirect("dialog", "loginRequired", "login required") end)
            flow.guard("bad", function() return flow.redirect("dialog", "unknownDialog", "x") end)
            """)])
        let router = FlowRouter<FlowRouteValue, AppDialog>(root: FlowRouteValue("home"))
        engine.install(into: router)
        #expect(router.requestGlobalDialog(.networkError))
        #expect(router.globalDialog == .deleteConfirmation(item: "9"))
        let result = router.perform(.push(FlowRouteValue("orders"), target: .active))
        #expect(result.dialogRedirect?.applied == true)
        #expect(router.globalDialog == .loginRequired)
        let bad = router.perform(.push(FlowRouteValue("bad"), target: .active))
        #expect(bad.dialogRedirect?.applied == false)
        #expect(bad.dialogRedirect?.reason?.contains("AppDialog has no dialog \"unknownDialog\"") == true, "\(bad.dialogRedirect?.reason ?? "")")
        #expect(router.globalDialog == .loginRequired)
        let banners = FlowRouter<FlowRouteValue, Banner>(root: FlowRouteValue("home"))
        let refusing = try FlowRulesEngine<FlowRouteValue>(sources: [FlowRulesSource(
            name: "rules/b.lua", text: "flow.dialog_guard(\"sale\", function() return false, \"no sales\" end)")])
        refusing.install(into: banners)
        #expect(!banners.requestGlobalDialog(Banner(id: "sale")))
        #expect(banners.requestGlobalDialog(Banner(id: "news")))
        #expect(banners.history.last?.dialogChange?.dialog == "news")
    }
}
