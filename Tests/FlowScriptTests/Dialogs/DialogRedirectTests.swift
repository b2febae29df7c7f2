import FlowStackCore
import Foundation
import Testing
@testable import FlowScript
import FlowStackTestSupport

/// A dialog guard showing another dialog instead, and a navigation answered with a dialog.
@Suite("Dialog rules: redirects")
@MainActor
struct DialogRedirectTests {
    @Test("A guard shows another dialog instead; the other is asked its own rules; both are history entries")
    func showInstead() throws {
        let rig = try DialogRig("""
            flow.dialog_guard("old", function() return flow.redirect("dialog", { id = "new", n = 1 }, "moved", "queue") end)
            flow.dialog_guard("new", function(dialog) if dialog.source ~= "rules" then return false, "direct" end end)
            """)
        #expect(rig.show("old"))
        #expect(rig.router.globalDialog == FlowDialogValue(id: "new", fields: ["n": 1]))
        let entries = rig.dialogEntries
        #expect(entries.count == 2)
        #expect(entries[0].status == .redirected)
        #expect(entries[0].reason == "moved")
        #expect(entries[0].dialogChange?.dialog == "old")
        #expect(entries[1].status == .applied)
        #expect(entries[1].dialogChange?.action == .show(.queue))
    }

    @Test("The same dialog with another policy is shown without asking its rules again")
    func samePolicyChange() throws {
        let rig = try DialogRig("""
            calls = 0
            flow.dialog_guard("rating", function(dialog)
              host.count()
              if dialog.policy ~= "queue" then return flow.redirect("dialog", "rating", "wait", "queue") end
              return false, "asked again"
            end)
            """)
        var calls = 0
        rig.engine.registerHost("count") { _ in
            calls += 1
            return []
        }
        #expect(rig.show("a"))
        #expect(rig.show("rating"))
        #expect(calls == 1)
        #expect(rig.router.globalDialog?.id == "a")
        #expect(rig.router.queuedGlobalDialogs.map(\.id) == ["rating"])
    }

    @Test("A cycle of dialog redirects is refused as a redirect loop with the chain, at the guard's file:line")
    func loop() throws {
        let rig = try DialogRig("""
            flow.dialog_guard("a", function() return flow.redirect("dialog", "b") end)
            flow.dialog_guard("b", function() return flow.redirect("dialog", "a") end)
            """)
        #expect(!rig.show("a"))
        #expect(rig.router.globalDialog == nil)
        let reason = try #require(rig.lastReason)
        // At the file:line of the dialog guard whose redirect went one too far.
        #expect(reason.hasPrefix("rules/dialogs.lua:"), "\(reason)")
        #expect(FlowScriptError.splitLocation(reason)?.message
            .hasPrefix("dialog redirect loop: more than \(DialogRouter.maximumRedirects) redirects: a → b → a") == true, "\(reason)")
        #expect(rig.router.history.last?.status == .failed)
        #expect(rig.dialogEntries.count == DialogRouter.maximumRedirects + 1)
    }

    @Test("A precondition answers a navigation with a dialog: blocked with the reason, the dialog shown through the dialog rules")
    func navigationAnsweredWithDialog() throws {
        let rig = try DialogRig("""
            flow.guard("orders", function() return flow.redirect("dialog", "loginRequired", "login required") end)
            flow.guard("cart", function() return flow.redirect("dialog", { id = "promo", code = "X" }, nil, "queue") end)
            flow.dialog_guard("loginRequired", function(dialog) host.seen(dialog.source) end)
            """)
        var sources: [String] = []
        rig.engine.registerHost("seen") { arguments in
            if case .string(let source)? = arguments.first ?? nil { sources.append(source) }
            return []
        }
        let result = rig.router.perform(.push(FlowRouteValue("orders"), target: .active))
        #expect(!result.isApplied)
        #expect(result.status == .blockedByGuard)
        #expect(result.reason == "login required")
        #expect(result.dialogRedirect?.dialog == FlowDialogValue(id: "loginRequired"))
        #expect(result.dialogRedirect?.policy == .replace)
        #expect(result.dialogRedirect?.applied == true)
        #expect(result.dialogRedirect?.reason == nil)
        #expect(rig.router.globalDialog?.id == "loginRequired")
        #expect(rig.router.activeStack.path.isEmpty)
        #expect(sources == ["rules"])
        let cart = rig.router.perform(.push(FlowRouteValue("cart"), target: .active))
        #expect(cart.dialogRedirect?.policy == .queue)
        #expect(cart.dialogRedirect?.dialog.fields == ["code": "X"])
        #expect(cart.reason?.contains("rules/dialogs.lua:2") == true, "\(cart.reason ?? "")")
        #expect(rig.router.queuedGlobalDialogCount == 1)
    }

    @Test("A dialog a rule answers with can be refused by the dialog rules: the result says so")
    func answeredDialogRefused() throws {
        let rig = try DialogRig("""
            flow.precondition("push", function() return flow.redirect("dialog", "upsell", "premium only") end)
            flow.dialog_guard("upsell", function() return false, "no upsell today" end)
            """)
        let result = rig.router.perform(.push(FlowRouteValue("editor"), target: .active))
        #expect(result.status == .blockedByPrecondition)
        #expect(result.reason == "premium only")
        #expect(result.dialogRedirect?.applied == false)
        #expect(result.dialogRedirect?.reason == "no upsell today")
        #expect(rig.router.globalDialog == nil)
    }

    @Test("A bad dialog redirect is a script error with file:line (unknown id, bad policy)")
    func badDialogRedirects() throws {
        let manifest = FlowManifest(routes: ["home": .init(), "a": .init(), "b": .init()], dialogs: ["loginRequired"])
        let rig = try DialogRig("""
            flow.guard("a", function() return flow.redirect("dialog", "loginRequird") end)
            flow.guard("b", function() return flow.redirect("dialog", "loginRequired", "x", "sometimes") end)
            """, configuration: FlowRulesConfiguration(manifest: manifest))
        let a = rig.router.perform(.push(FlowRouteValue("a"), target: .active))
        #expect(a.status == .failed)
        #expect(a.reason?.contains("rules/dialogs.lua:1") == true)
        #expect(a.reason?.contains("did you mean 'loginRequired'") == true, "\(a.reason ?? "")")
        let b = rig.router.perform(.push(FlowRouteValue("b"), target: .active))
        #expect(b.reason?.contains("unknown dialog policy") == true, "\(b.reason ?? "")")
        #expect(rig.router.globalDialog == nil)
    }

    @Test("A dialog redirect's options table holds the navigation (resume) and carries its policy")
    func dialogRedirectWithOptions() throws {
        let manifest = FlowManifest(routes: ["home": .init(), "orders": .init()], dialogs: ["loginRequired"])
        let rig = try DialogRig("""
            flow.guard("orders", function() return flow.redirect("dialog", "loginRequired", "sign in first", { resume = true, policy = "queue" }) end)
            """, configuration: FlowRulesConfiguration(manifest: manifest))
        let result = rig.router.perform(.push(FlowRouteValue("orders"), target: .active))
        #expect(result.status == .blockedByGuard)
        #expect(result.dialogRedirect?.policy == .queue)
        #expect(rig.router.globalDialog?.id == "loginRequired")
        let held = try #require(rig.router.pendingNavigation)
        #expect(held.dialog?.id == "loginRequired")
        #expect(held.command == FlowCommand(.push(FlowRouteValue("orders"), target: .active)))
    }

    @Test("A dialog redirect's options are checked: an unknown key with did-you-mean, a resume that is not a boolean",
          arguments: [
            ("{ resum = true }", "rules/dialogs.lua:1: unknown option 'resum' in flow.redirect's options (did you mean 'resume'?); the options are: resume, policy"),
            ("{ resume = 1 }", "rules/dialogs.lua:1: flow.redirect's option 'resume' must be a boolean"),
            ("{ policy = 'queu' }", "rules/dialogs.lua:1: bad argument #4 to 'flow.redirect' (unknown dialog policy queu, did you mean 'queue'?"),
            ("true", "rules/dialogs.lua:1: bad argument #4 to 'flow.redirect' (dialog policy expected: one of replace, replaceKeepingQueue, queue, ignoreIfVisible or an options table such as { resume = true, policy = \"queue\" }, got boolean)"),
          ])
    func dialogRedirectBadOptions(options: String, message: String) throws {
        let manifest = FlowManifest(routes: ["home": .init(), "orders": .init()], dialogs: ["loginRequired"])
        let rig = try DialogRig("""
            flow.guard("orders", function() return flow.redirect("dialog", "loginRequired", "sign in first", \(options)) end)
            """, configuration: FlowRulesConfiguration(manifest: manifest))
        let result = rig.router.perform(.push(FlowRouteValue("orders"), target: .active))
        #expect(result.status == .failed)
        let reason = try #require(result.reason)
        #expect(reason.hasPrefix(message), "\(reason)")
        #expect(rig.router.globalDialog == nil)
        #expect(rig.router.pendingNavigation == nil)
    }

    @Test("An unknown kind lists the kinds each function takes, as check does: dialog for flow.redirect, showDialog for flow.op")
    func unknownKindListsDialog() throws {
        let rig = try DialogRig("""
            flow.guard("orders", function() return flow.redirect("dialgo", "loginRequired") end)
            flow.guard("home", function() return flow.redirect(flow.op("showDialg", "x").kind, "x") end)
            """)
        let redirect = try #require(rig.router.perform(.push(FlowRouteValue("orders"), target: .active)).reason)
        #expect(redirect.hasSuffix("unknown operation kind 'dialgo' (did you mean 'dialog'?); kinds are setRoot, push, pushMany, "
            + "pushRemovingPrevious, replaceCurrent, replacePath, pop, popToRoot, popTo, sheet, fullScreenCover, dismiss, dismissAll, "
            + "selectTab, dialog"), "\(redirect)")
        let op = try #require(rig.router.perform(.push(FlowRouteValue("home"), target: .active)).reason)
        #expect(op.contains("(did you mean 'showDialog'?)") && op.hasSuffix("selectTab, showDialog"), "\(op)")
    }

    @Test("An async navigation answered with a dialog shows it too")
    func asyncNavigation() async throws {
        let rig = try DialogRig("""
            flow.guard("orders", function() return flow.redirect("dialog", "loginRequired", "login required") end)
            """)
        let result = await rig.router.performAsync(FlowCommand(.push(FlowRouteValue("orders"), target: .active)))
        #expect(result.reason == "login required")
        #expect(result.dialogRedirect?.applied == true)
        #expect(rig.router.globalDialog?.id == "loginRequired")
    }

    @Test("showGlobalDialogAsync runs as a turn of the async queue, after the navigations queued before it")
    func asyncQueueOrdersDialogs() async throws {
        let rig = try DialogRig("""
            flow.dialog_guard("*", function(dialog, stacks) return false, "depth " .. #stacks[1].routes end)
            """)
        let gate = FlowStackTestSupport.AsyncGate()
        let push = Task { @MainActor in
            await rig.router.performAsync(FlowCommand(.push(FlowRouteValue("a"), target: .active))) { _, _ in
                await gate.wait()
                return true
            }
        }
        await yieldUntil { gate.waitingCount == 1 }
        let dialog = Task { @MainActor in await rig.router.showGlobalDialogAsync(FlowDialogValue(id: "d")) }
        await yieldUntil { rig.router.queuedTransitionCount == 1 }
        #expect(rig.dialogEntries.isEmpty)
        gate.open()
        #expect(await push.value.isApplied)
        #expect(await dialog.value == false)
        #expect(rig.lastReason == "depth 2")
    }
}
