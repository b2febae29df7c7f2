import FlowScript
import FlowTesting
import FlowStackCore
import Foundation
import Testing

/// Gates that chain, in flows: a held navigation behind an async check, login then paywall for
/// a navigation and for a link (the same outcome), a PIN dialog that holds, and the facts rules
/// (`flow.on_facts_changed`) that remove private screens on sign-out.
@MainActor
@Suite("Flows: gates that chain")
struct FlowGatesTests {
    static let manifest = """
        return {
          root = "home",
          routes = { home = {}, orders = {}, login = {}, paywall = {}, settings = {}, deleteAccount = {}, account = {} },
          dialogs = { "parentalPin" },
          facts = { isLoggedIn = false, isPremium = false, pinEntered = false },
          links = { schemes = { "myapp" } },
        }
        """

    static let rules = """
        flow.guard("orders", function(op)
          if not facts.isLoggedIn then return flow.redirect("sheet", "login", "sign in first", { resume = true }) end
          if not facts.isPremium then return flow.redirect("fullScreenCover", "paywall", "subscribe first", { resume = true }) end
        end)
        flow.guard("deleteAccount", function(op)
          if not facts.isLoggedIn then return flow.redirect("sheet", "login", "sign in first", { resume = true }) end
          if not host.confirmIdentity() then return false, "identity not confirmed" end
        end)
        flow.guard("settings", function(op)
          if not facts.pinEntered then return flow.redirect("dialog", "parentalPin", "enter the PIN", { resume = true }) end
        end)
        flow.guard("account", function(op)
          if not facts.isLoggedIn then return false, "sign in first" end
        end)
        flow.deeplink("/orders", function(p) return { flow.op("popToRoot"), flow.op("push", "orders") } end)
        flow.deeplink("/settings", function(p) return { flow.op("popToRoot"), flow.op("push", "settings") } end)
        flow.on_facts_changed(function(changed, stacks, ctx)
          if changed.isLoggedIn and not facts.isLoggedIn then
            return { flow.op("dismissAll"), flow.op("popToRoot") }
          end
        end)
        """

    static func run(_ flows: String) async throws -> FlowTestReport {
        try await FlowProjectFixture.run(["gates.lua": flows], rules: rules, manifest: manifest)
    }

    @Test("a navigation held from pushAsync resumes through the async pipeline once signed in")
    func asyncResume() async throws {
        let report = try await Self.run("""
            describe("async resume", function()
              it("asks the async host when the held push resumes", function()
                local confirm = spy(function() app.wait(1); return true end)
                app.host("confirmIdentity", confirm)
                local r = router.pushAsync("deleteAccount")
                expect(r.applied).to_be(false)
                expect(router.pendingNavigation().async).to_be(true)
                app.facts{ isLoggedIn = true }
                expect(router.top()).to_equal({ name = "deleteAccount" })
                expect(router.pendingNavigation()).to_be_nil()
                expect(confirm).to_have_been_called_times(1)
                expect(router.history()).to_match_steps{
                  "push deleteAccount redirected: sign in first", "sheet login",
                  "dismiss (resume)", "push deleteAccount (resume)",
                }
              end)
              it("resumes explicitly through the queue", function()
                app.host("confirmIdentity", function() app.wait(1); return true end)
                router.pushAsync("deleteAccount")
                app.facts{ isLoggedIn = true }
                app.reset{ facts = { isLoggedIn = false } }
                router.pushAsync("deleteAccount")
                app.host("confirmIdentity", function() app.wait(1); return false end)
                local ok, why = router.resumePendingNavigationAsync()
                expect(ok).to_be(false)
                expect(why).to_contain("sign in first")
              end)
            end)
            """)
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.results.count == 2)
    }

    @Test("login, then paywall: the same outcome for a navigation and for a link")
    func chainedGates() async throws {
        let report = try await Self.run("""
            local function signInThenPay(ask)
              ask()
              expect(router.top()).to_equal({ name = "login" })
              app.facts{ isLoggedIn = true }
              expect(#router.stacks()).to_be(2)
              expect(router.stacks()[2].presentation).to_be("fullScreenCover")
              expect(router.top()).to_equal({ name = "paywall" })
              app.facts{ isPremium = true }
              expect(#router.stacks()).to_be(1)
              expect(router.top()).to_equal({ name = "orders" })
              expect(router.pendingNavigation()).to_be_nil()
              expect(router.pendingLink()).to_be_nil()
            end
            describe("login then paywall", function()
              it("holds a navigation through both gates", function()
                signInThenPay(function() router.push("orders") end)
              end)
              it("holds a link through both gates", function()
                signInThenPay(function() expect(router.open("myapp://orders").status).to_be("pending") end)
              end)
            end)
            """)
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.results.count == 2)
    }

    @Test("a PIN dialog holds settings: the answer runs it, a dismissal drops it (recorded)")
    func dialogHolds() async throws {
        let report = try await Self.run("""
            describe("parental PIN", function()
              it("runs settings once the PIN is entered", function()
                local r = router.push("settings")
                expect(r.applied).to_be(false)
                expect(router.dialog()).to_be("parentalPin")
                expect(router.pendingNavigation().redirect).to_equal({ kind = "dialog", dialog = "parentalPin" })
                app.facts{ pinEntered = true }
                expect(router.dialog()).to_be_nil()
                expect(router.top()).to_equal({ name = "settings" })
                expect(router.history()).to_match_steps{
                  "push settings blocked: enter the PIN", "showDialog parentalPin",
                  "hideDialog parentalPin", "push settings (resume)",
                }
              end)
              it("drops settings when the PIN prompt is dismissed", function()
                router.push("settings")
                router.hideDialog()
                expect(router.pendingNavigation()).to_be_nil()
                local last = router.history()[#router.history()]
                expect(last.applied).to_be(false)
                expect(last.reason).to_contain("dismissed before the rules allowed it")
                app.facts{ pinEntered = true }
                expect(router.top()).to_equal({ name = "home" })
              end)
              it("holds a link behind the PIN the same way: the answer runs it", function()
                expect(router.open("myapp://settings").status).to_be("pending")
                expect(router.dialog()).to_be("parentalPin")
                app.facts{ pinEntered = true }
                expect(router.dialog()).to_be_nil()
                expect(router.top()).to_equal({ name = "settings" })
                expect(router.pendingLink()).to_be_nil()
              end)
              it("drops a link held behind the PIN when the prompt is dismissed", function()
                router.open("myapp://settings")
                expect(router.pendingLink()).to_be("myapp://settings")
                router.hideDialog()
                expect(router.pendingLink()).to_be_nil()
                app.facts{ pinEntered = true }
                expect(router.top()).to_equal({ name = "home" })
              end)
            end)
            """)
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.results.count == 4)
    }

    @Test("signing out removes the private screens, through the pipeline, with source facts")
    func signOut() async throws {
        let report = try await Self.run("""
            describe("sign-out", function()
              it("dismisses and pops what was shown signed in", function()
                app.reset{ facts = { isLoggedIn = true } }
                router.push("account")
                router.sheet("settings")
                app.facts{ pinEntered = true }
                app.facts{ isLoggedIn = false }
                expect(#router.stacks()).to_be(1)
                expect(router.top()).to_equal({ name = "home" })
                local history = router.history()
                expect(history[#history].op.source).to_be("facts")
                expect(history).to_match_steps{
                  "push account", "sheet settings blocked: enter the PIN", "showDialog parentalPin",
                  "hideDialog parentalPin", "sheet settings (resume)",
                  "dismissAll (facts)", "popToRoot (facts)",
                }
              end)
              it("does nothing on sign-in", function()
                router.push("orders")
                app.facts{ isLoggedIn = true }
                expect(router.top()).to_equal({ name = "paywall" })
              end)
            end)
            """)
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.results.count == 2)
    }

    @Test("a facts rule's plan may end with a dialog: shown after its navigation, through the dialog rules, source facts")
    func factsPlanShowsDialog() async throws {
        let manifest = Self.manifest.replacingOccurrences(of: "\"parentalPin\"", with: "\"parentalPin\", \"signedOut\"")
        let rules = Self.rules.replacingOccurrences(
            of: "return { flow.op(\"dismissAll\"), flow.op(\"popToRoot\") }",
            with: "return { flow.op(\"dismissAll\"), flow.op(\"popToRoot\"), flow.op(\"showDialog\", \"signedOut\") }")
            + """
            flow.dialog_guard("signedOut", function(d) if d.source ~= "facts" then return false, "only after a sign-out" end end)
            flow.precondition("popToRoot", function(op) if facts.pinEntered then return false, "locked by the PIN" end end)
            """
        let report = try await FlowProjectFixture.run(["gates.lua": """
            describe("sign-out", function()
              it("pops the private screens, then tells the person", function()
                app.reset{ facts = { isLoggedIn = true } }
                router.push("account")
                app.facts{ isLoggedIn = false }
                expect(router.top()).to_equal({ name = "home" })
                expect(router.dialog()).to_be("signedOut")
                expect(router.history()).to_match_steps{ "push account", "dismissAll (facts) blocked", "popToRoot (facts)", "showDialog signedOut" }
              end)
              it("shows nothing when the plan is refused", function()
                app.reset{ facts = { isLoggedIn = true, pinEntered = true } }
                router.push("account")
                app.facts{ isLoggedIn = false }
                expect(router.top()).to_equal({ name = "account" })
                expect(router.dialog()).to_be_nil()
                expect(router.showDialog("signedOut")).to_be(false)
              end)
            end)
            """], rules: rules, manifest: manifest)
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.results.count == 2)
    }

    @Test("an expectation on a link that did not apply says why: each pattern tried and why it did not match")
    func unhandledLinkSaysWhy() async throws {
        let report = try await Self.run("""
            it("opens a mistyped link", function()
              expect(router.open("myapp://order").status).to_be("applied")
            end)
            """)
        #expect(report.failedCount == 1)
        let failure = try #require(report.results.first?.failures.first)
        #expect(failure.stacks.contains(
            "last link: myapp://order unhandled: no deep link pattern matches path '/order' "
                + "(tried '/orders': segment 1 is 'order', the pattern wants 'orders'; "
                + "'/settings': segment 1 is 'order', the pattern wants 'settings')"), "\(failure.stacks)")
    }

    @Test("a script error refusing a dismiss names the route it would dismiss, not the one below it")
    func refusedDismissNamesItsTop() async throws {
        let report = try await FlowProjectFixture.run(["dismiss.lua": """
            it("refuses to close the login sheet", function()
              router.sheet("login")
              expect(router.dismiss().applied).to_be(false)
              local errors = app.scriptErrors()
              expect(errors[1]).to_contain("script error in a rule (it refused dismiss login)")
            end)
            """], rules: """
            flow.precondition("dismiss", function(op, stacks) return stacks.nothing.here end)
            """, manifest: Self.manifest)
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
    }
}
