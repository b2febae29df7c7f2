import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// Dialog rules: `flow.dialog_guard` decides every dialog about to be shown.
@Suite("Dialog rules: dialog guards")
@MainActor
struct DialogGuardTests {
    @Test("A guard that returns nothing or true shows the dialog")
    func showsWhenAllowed() throws {
        let rig = try DialogRig("""
            flow.dialog_guard("a", function() end)
            flow.dialog_guard("b", function() return true end)
            """)
        #expect(rig.show("a"))
        #expect(rig.router.globalDialog?.id == "a")
        #expect(rig.show("b"))
        #expect(rig.router.globalDialog?.id == "b")
        #expect(rig.dialogEntries.allSatisfy { $0.status == .applied && $0.reason == nil })
    }

    @Test("false and a reason refuse: requestGlobalDialog returns false and the history records the reason")
    func refusesWithReason() throws {
        let rig = try DialogRig("""
            flow.dialog_guard("rating", function(dialog) return false, "not now" end)
            flow.dialog_guard("other", function(dialog) return nil end)
            """)
        #expect(!rig.show("rating"))
        #expect(rig.router.globalDialog == nil)
        let entry = try #require(rig.dialogEntries.last)
        #expect(entry.reason == "not now")
        #expect(entry.status == .blockedByGuard)
        #expect(entry.dialogChange?.dialog == "rating")
        #expect(entry.generation == rig.engine.generation)
        #expect(!rig.show("other"))
        #expect(rig.lastReason?.contains("rules/dialogs.lua:2") == true)
    }

    @Test("The guard sees a read-only view { id, policy, source, ...payload }, the stacks and ctx")
    func viewStacksAndContext() throws {
        let rig = try DialogRig("""
            seen = nil
            flow.dialog_guard("*", function(dialog, stacks, ctx)
              return false, table.concat({ dialog.id, dialog.policy, dialog.source, tostring(dialog.item),
                #stacks, stacks[1].routes[1].name, tostring(ctx.dialog), ctx.queuedDialogs, ctx.generation }, " ")
            end)
            """)
        #expect(!rig.show("delete", .queue, fields: ["item": "42"]))
        #expect(rig.lastReason == "delete queue code 42 1 home nil 0 \(rig.engine.generation)")
    }

    @Test("A dialog the person asked for is decided with source user and recorded with source user")
    func userSource() throws {
        let rig = try DialogRig("""
            flow.dialog_guard("*", function(dialog) if dialog.source == "user" then return false, "asked by the person" end end)
            """)
        #expect(!rig.router.userDidShowGlobalDialog(FlowDialogValue(id: "help")))
        #expect(rig.lastReason == "asked by the person")
        #expect(rig.router.history.last?.source == .user)
        #expect(rig.show("help"))
    }

    @Test("A guard that allocates without bound is stopped by the memory budget and the dialog refused")
    func memoryBudget() throws {
        let rig = try DialogRig(
            """
            flow.dialog_guard("*", function(dialog)
              local t = {}
              for i = 1, 100000000 do t[i] = string.rep("x", 64) .. i end
            end)
            """, configuration: FlowRulesConfiguration(instructionBudget: 100_000_000, memoryBudget: 4 << 20))
        #expect(!rig.show("a"))
        #expect(rig.lastReason?.contains("memory") == true, "\(rig.lastReason ?? "")")
        #expect(rig.lastReason?.contains("rules/dialogs.lua") == true)
        #expect(rig.router.perform(.push(FlowRouteValue("after"), target: .active)).isApplied)
    }

    @Test("Writing to the dialog view is a script error with file:line; fail closed refuses the dialog")
    func viewIsReadOnly() throws {
        let rig = try DialogRig("""
            flow.dialog_guard("*", function(dialog)
              dialog.id = "other"
            end)
            """)
        #expect(!rig.show("a"))
        let entry = try #require(rig.dialogEntries.last)
        #expect(entry.status == .failed)
        #expect(entry.reason?.hasPrefix("rules/dialogs.lua:2:") == true, "\(entry.reason ?? "")")
        #expect(rig.router.globalDialog == nil)
    }

    @Test("Fail open shows the dialog after a failing guard and records the failure")
    func failOpen() throws {
        let rig = try DialogRig(
            """
            flow.dialog_guard("*", function(dialog) error("boom") end)
            """, configuration: FlowRulesConfiguration(failurePolicy: .failOpen))
        #expect(rig.show("a"))
        #expect(rig.router.globalDialog?.id == "a")
        #expect(rig.lastReason?.contains("rules/dialogs.lua:1") == true)
        #expect(rig.lastReason?.contains("boom") == true)
    }

    @Test("A guard that never ends is stopped by the instruction budget and the dialog refused")
    func instructionBudget() throws {
        let rig = try DialogRig(
            """
            flow.dialog_guard("*", function(dialog) while true do end end)
            """, configuration: FlowRulesConfiguration(instructionBudget: 100_000))
        #expect(!rig.show("a"))
        #expect(rig.lastReason?.contains("instruction") == true, "\(rig.lastReason ?? "")")
        #expect(rig.lastReason?.contains("rules/dialogs.lua:1") == true)
    }

    @Test("An asynchronous host function in a dialog guard refuses the dialog, sync or async, and says what to do instead")
    func asyncHostRefused() async throws {
        let rig = try DialogRig("""
            flow.dialog_guard("*", function(dialog) return host.askMarketing() end)
            """)
        rig.engine.registerAsyncHost("askMarketing") { _ in [.bool(true)] }
        #expect(!rig.show("a"))
        #expect(!(await rig.router.showGlobalDialogAsync(FlowDialogValue(id: "b"))))
        for reason in [rig.router.history.dropLast().last?.reason, rig.lastReason] {
            let text = try #require(reason)
            #expect(text.hasPrefix("rules/dialogs.lua:1: host.askMarketing is asynchronous, and dialog rules run synchronously"), "\(text)")
            #expect(text.contains("keep the answer in a fact"))
            #expect(!text.contains("call it from an async navigation"), "no advice that cannot help here: \(text)")
        }
        #expect(rig.router.globalDialog == nil)
    }

    @Test("A guard that returns a navigation redirect or another value is a script error")
    func badReturns() throws {
        let rig = try DialogRig("""
            flow.dialog_guard("nav", function() return flow.redirect("push", "login") end)
            flow.dialog_guard("num", function() return 42 end)
            """)
        #expect(!rig.show("nav"))
        #expect(rig.lastReason?.contains("can only redirect to a dialog") == true, "\(rig.lastReason ?? "")")
        #expect(!rig.show("num"))
        #expect(rig.lastReason?.contains("rules/dialogs.lua:2") == true, "\(rig.lastReason ?? "")")
    }

    @Test("Guards for an id and for \"*\" run in registration order; the first that refuses decides")
    func order() throws {
        let rig = try DialogRig("""
            flow.dialog_guard("*", function() return false, "star first" end)
            flow.dialog_guard("a", function() return false, "a second" end)
            """)
        #expect(!rig.show("a"))
        #expect(rig.lastReason == "star first")
    }

    @Test("Hiding and clearing dialogs never ask the rules")
    func hideAndClearNeverRefused() throws {
        let rig = try DialogRig("""
            flow.dialog_guard("*", function(dialog) if dialog.id ~= "a" then return false, "no" end end)
            """)
        #expect(rig.show("a"))
        rig.router.hideGlobalDialog()
        #expect(rig.router.globalDialog == nil)
        #expect(rig.show("a", .queue))
        rig.router.clearGlobalDialogs()
        #expect(rig.router.globalDialog == nil)
        #expect(rig.router.history.last?.status == .applied)
    }

    @Test("A dialog requested while a rule decides is refused")
    func requestWhileDeciding() throws {
        let rig = try DialogRig("""
            flow.guard("settings", function() host.showDialog(); return true end)
            """)
        var shownInside: Bool?
        rig.engine.registerHost("showDialog") { [router = rig.router] _ in
            shownInside = router.requestGlobalDialog(FlowDialogValue(id: "inside"))
            return []
        }
        rig.router.perform(.push(FlowRouteValue("settings"), target: .active))
        #expect(shownInside == false)
        #expect(rig.router.globalDialog == nil)
        #expect(rig.dialogEntries.last?.reason?.contains("while a rule was deciding") == true)
    }

    @Test("A router whose dialog type does not convert shows its dialogs without asking the rules")
    func unconvertibleDialogs() throws {
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [FlowRulesSource(
            name: "rules/dialogs.lua", text: "flow.dialog_guard(\"*\", function() return false, \"never\" end)")])
        let router = FlowRouter<FlowRouteValue, Int>(root: FlowRouteValue("home"))
        engine.install(into: router)
        #expect(router.requestGlobalDialog(7))
        #expect(router.globalDialog == 7)
    }

    @Test("Registration checks: function argument, dialog ids against the manifest with did you mean, file:line")
    func registrationChecks() throws {
        let manifest = FlowManifest(routes: ["home": .init()], dialogs: ["networkError", "rating"])
        let configuration = FlowRulesConfiguration(manifest: manifest)
        let unknown = loadError("flow.dialog_guard(\"networkErorr\", function() end)", configuration: configuration)
        #expect(unknown?.description.contains("rules/bad.lua:1") == true)
        #expect(unknown?.description.contains("did you mean 'networkError'") == true, "\(unknown?.description ?? "")")
        let notFunction = loadError("flow.dialog_guard(\"rating\", 42)", configuration: configuration)
        #expect(notFunction?.description.contains("function expected") == true)
        #expect(loadError("flow.dialog_guard(\"*\", function() end)", configuration: configuration) == nil)
        let late = try DialogRig("""
            flow.guard("settings", function() flow.dialog_guard("*", function() end) end)
            """)
        let result = late.router.perform(.push(FlowRouteValue("settings"), target: .active))
        #expect(result.reason?.contains("only be called while the rules load") == true)
    }
}
