import FlowLuaTestSupport
import FlowScript
import FlowTesting
import FlowStackCore
import Foundation
import Testing

/// Flows test what apps do: the async twins of every navigation, spies as host stubs, dialog
/// steps, popTo of the root, gestures the style forbids, and script errors the rules raise.
@MainActor
@Suite("Flows: what apps do")
struct FlowAppBehaviourTests {
    /// Rules with a save-before-leave precondition that asks an async host, styles that forbid
    /// gestures, and a guard answered with a dialog.
    static let rules = FlowProjectFixture.rules + """

        flow.precondition("pop", function(op, stacks)
          local top = stacks[#stacks].routes
          if top[#top].name == "c" and not host.confirmLeave() then return false, "unsaved changes" end
        end)
        flow.guard("d", function(op)
          if not facts.isLoggedIn then return flow.redirect("dialog", "networkError", "offline") end
        end)
        flow.style.screen(function(c)
          if c.screenRoute.name == "login" then return { navigationBarBackButtonHidden = true } end
        end)
        flow.style.modal(function(c)
          if c.rootRoute.name == "c" then return { interactiveDismissDisabled = true } end
        end)
        """

    @Test("every navigation has its Async twin, recorded as async, and FlowTestAPI lists exactly router's names")
    func asyncTwins() async throws {
        let names = FlowTestAPI.routerNavigations.map { "\"\($0)\"" }.joined(separator: ", ")
        let members = FlowTestAPI.routerMembers.map { "\"\($0)\"" }.joined(separator: ", ")
        let report = try await FlowProjectFixture.run(["a.lua": """
            it("has the twins", function()
              for _, name in ipairs{ \(names) } do
                expect(router[name .. "Async"]).to_be_a("function")
              end
              local listed = {}
              for _, name in ipairs{ \(members) } do
                listed[name] = true
                expect(function() return router[name] end).never.to_fail()
              end
              for name in pairs(router) do expect(listed[name]).to_be(true) end
            end)
            it("runs them through the async queue", function()
              expect(router.setRootAsync("login").applied).to_be(true)
              expect(router.pushManyAsync{ "login", "c" }.applied).to_be(true)
              expect(router.replaceCurrentAsync("d").applied).to_be(false)
              expect(router.pushRemovingPreviousAsync("c").applied).to_be(true)
              expect(router.popToRootAsync().applied).to_be(true)
              expect(router.sheetAsync("login").applied).to_be(true)
              expect(router.dismissAsync().applied).to_be(true)
              expect(router.dismissAsync(4).reason).to_contain("no stack at index 4")
              expect(router.fullScreenCoverAsync("login").applied).to_be(true)
              expect(router.dismissAllAsync().applied).to_be(true)
              expect(router.replacePathAsync("home", { "login", "c", "login" }).applied).to_be(true)
              expect(router.popToAsync("c").applied).to_be(true)
              expect(router.showDialogAsync("networkError", "queue")).to_be(true)
              for _, entry in ipairs(router.history()) do
                if entry.op.kind ~= "showDialog" then expect(entry.op.async).to_be(true) end
              end
              expect(router.history()).to_match_steps{
                "setRoot login", "pushMany login,c", "replaceCurrent d blocked", "showDialog networkError",
                "pushRemovingPrevious c", "popToRoot", "sheet login", "dismiss", "fullScreenCover login", "dismissAll",
                "replacePath home", "popTo c", "showDialog networkError",
              }
            end)
            it("lets a save-before-leave rule ask an async host in popAsync", function()
              app.host("confirmLeave", function() app.wait(1); return false end)
              router.pushMany{ "login", "c" }
              local r = router.popAsync()
              expect(r.applied).to_be(false)
              expect(r.reason).to_be("unsaved changes")
              app.host("confirmLeave", function() return true end)
              expect(router.popAsync(2).applied).to_be(true)
              expect(router.top()).to_equal({ name = "home" })
            end)
            """], rules: Self.rules)
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.results.count == 3)
        #expect(report.results[2].scriptErrors.isEmpty, "\(report.results[2].scriptErrors)")
    }

    @Test("app.host takes a spy: it stubs the host and records the rules' calls")
    func spyAsHost() async throws {
        let report = try await FlowProjectFixture.run(["s.lua": """
            it("records", function()
              local verify = spy(function(name, level) return level == 3 end)
              app.host("verify2FA", verify)
              expect(router.push("transfer").applied).to_be(true)
              expect(verify).to_have_been_called_with("transfer", 3)
              expect(verify).to_have_been_called_times(1)
              expect(app.calls("verify2FA")).to_have_length(1)
            end)
            it("refuses what is not callable", function()
              expect(function() app.host("verify2FA", {}) end).to_fail("bad argument #2 to 'app.host' (function or spy expected, got table)")
              expect(function() app.host(42, spy()) end).to_fail("bad argument #1 to 'app.host'")
            end)
            """])
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.results.count == 2)
    }

    @Test("history steps name dialogs: showDialog <id>, hideDialog <id>, clearDialogs")
    func dialogSteps() async throws {
        let report = try await FlowProjectFixture.run(["d.lua": """
            it("names the dialog", function()
              local r = router.push("d")
              expect(r.redirect.dialog).to_be("networkError")
              router.hideDialog()
              router.hideDialog()
              router.showDialog("networkError")
              router.clearDialogs()
              expect(router.history()).to_match_steps{
                "push d blocked: offline",
                "showDialog networkError",
                "hideDialog networkError",
                "showDialog networkError",
                "clearDialogs",
              }
            end)
            it("fails on a wrong dialog id", function()
              router.showDialog("networkError")
              expect(router.history()).to_match_steps{ "showDialog cartEmpty" }
            end)
            """], rules: Self.rules)
        #expect(report.results.count == 2)
        #expect(report.results[0].passed, "\(FlowProjectFixture.failures(report))")
        let failure = try #require(report.results[1].failures.first)
        #expect(failure.diff == ["step 1: expected \"showDialog cartEmpty\", got \"showDialog networkError\""])
    }

    @Test("router.popTo(root) pops to the stack's root; inclusive is refused with a reason")
    func popToRoot() async throws {
        let report = try await FlowProjectFixture.run(["p.lua": """
            it("pops to the root", function()
              router.pushMany{ "login", "c" }
              expect(router.popTo("home", "inclusive")).to_equal({
                applied = false, kind = "popTo",
                reason = "home is the stack's root screen, which cannot be popped: router.popTo(root) pops to it, router.dismiss() closes a presented stack",
              })
              expect(router.popTo("home").applied).to_be(true)
              expect(router.top()).to_equal({ name = "home" })
              router.sheet("login")
              router.push("c")
              expect(router.popToAsync("login").applied).to_be(true)
              expect(#router.stacks()).to_be(2)
              expect(router.history()).to_match_steps{ "pushMany login,c", "popToRoot", "sheet login", "push c", "popToRoot" }
            end)
            """])
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.results.count == 1)
    }

    @Test("userPop and userDismiss are refused, unrecorded, where the resolved style forbids the gesture")
    func gesturesTheStyleForbids() async throws {
        let report = try await FlowProjectFixture.run(["g.lua": """
            it("no back swipe without a back button", function()
              router.push("login")
              local r = router.userPop()
              expect(r.applied).to_be(false)
              expect(r.kind).to_be("pop")
              expect(r.reason).to_contain("navigationBarBackButtonHidden")
              expect(#router.history()).to_be(1)
              router.push("c")
              expect(router.userPop().applied).to_be(true)
            end)
            it("no swipe-down where interactiveDismissDisabled", function()
              router.sheet("c")
              local r = router.userDismiss()
              expect(r.applied).to_be(false)
              expect(r.kind).to_be("dismiss")
              expect(r.reason).to_contain("interactiveDismissDisabled")
              expect(#router.stacks()).to_be(2)
              expect(#router.history()).to_be(1)
              router.dismiss()
              router.sheet("login")
              expect(router.userDismiss().applied).to_be(true)
            end)
            """], rules: Self.rules)
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.results.count == 2)
    }

    @Test("a rule's script error is listed with the rule's file:line; under failOnScriptErrors it fails the test")
    func scriptErrors() async throws {
        let flows = ["e.lua": """
            it("pushes transfer without stubbing the host", function()
              router.push("transfer")
              router.push("transfer")
            end)
            it("stubs it", function()
              app.host("verify2FA", function() return true end)
              expect(router.push("transfer").applied).to_be(true)
            end)
            it("expects the error, and takes it", function()
              expect(router.push("transfer").applied).to_be(false)
              local errors = app.scriptErrors()
              expect(errors).to_have_length(1)
              expect(errors[1]).to_match("^rules/bank%.lua:7: script error in a rule %(it refused push transfer%): host%.verify2FA is not stubbed")
              expect(app.scriptErrors()).to_equal({})
            end)
            """]
        let lenient = try await FlowProjectFixture.run(flows)
        #expect(lenient.failedCount == 0, "\(FlowProjectFixture.failures(lenient))")
        let errors = lenient.results[0].scriptErrors
        #expect(errors.count == 1, "the same error once: \(errors)")
        let error = try #require(errors.first)
        #expect(error.location == "rules/bank.lua:7", "\(error)")
        #expect(error.message.hasPrefix("script error in a rule (it refused push transfer): host.verify2FA is not stubbed"), "\(error.message)")
        #expect(lenient.results[1].scriptErrors.isEmpty)
        #expect(lenient.scriptErrors.count == 1)

        let strict = try await FlowProjectFixture.run(flows, options: .init(failOnScriptErrors: true))
        #expect(strict.failedCount == 1)
        #expect(strict.results[0].failures == [error])
        #expect(strict.results[1].passed)
        #expect(strict.results[2].passed, "taken by app.scriptErrors(): \(strict.results[2].failures)")
        #expect(strict.results[2].scriptErrors.isEmpty)
        #expect(!strict.succeeded)
    }

    @Test("with an app engine that fails open, the script error is listed too, the navigation let through")
    func scriptErrorsFailOpen() async throws {
        let manifest = try FlowManifest.parse(source: FlowProjectFixture.manifest)
        let sources = [FlowRulesSource(name: "rules/bank.lua", text: FlowProjectFixture.rules)]
        let engine = try FlowRulesEngine<FlowRouteValue>(
            sources: sources, configuration: FlowRulesConfiguration(failurePolicy: .failOpen, manifest: manifest))
        let project = FlowProject(
            directory: URL(fileURLWithPath: "/tmp/flow-fixture"), manifest: manifest, rules: sources,
            flows: [FlowRulesSource(name: "flows/o.lua", text: """
                it("lets transfer through", function() expect(router.push("transfer").applied).to_be(true) end)
                """)])
        let report = await FlowTestRunner<FlowRouteValue>(project: project, engine: engine).run()
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        let error = try #require(report.results.first?.scriptErrors.first)
        #expect(error.location == "rules/bank.lua:7")
        #expect(error.message.hasPrefix("script error in a rule (the failure policy let push transfer through): host.verify2FA"), "\(error.message)")
    }

    @Test("a step answered with a dialog names it, wherever in the guard the answer came from")
    func dialogAnswerSteps() async throws {
        let rules = FlowProjectFixture.rules + """

            local gates = { { route = "c", dialog = "networkError" } }
            local function answer(route)
              for _, gate in ipairs(gates) do
                if gate.route == route then return flow.redirect("dialog", gate.dialog, "gated") end
              end
            end
            flow.guard("c", function(op) return answer(op.route.name) end)
            """
        let report = try await FlowProjectFixture.run(["g.lua": """
            it("is answered", function() router.push("login"); router.push("c") end)
            """], rules: rules)
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        let steps = try #require(report.results.first?.steps)
        #expect(steps.map(\.dialog) == [nil, "networkError"])
        #expect(steps.last?.to == "c")
        #expect(steps.last?.reason == "gated")
    }
}
