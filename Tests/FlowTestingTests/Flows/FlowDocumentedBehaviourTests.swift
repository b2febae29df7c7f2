import FlowLua
import FlowScript
import FlowStackCore
import Foundation
import Testing

/// Navigation calls in flows return what the docs say.
@MainActor
@Suite("Flow navigation results")
struct FlowDocumentedBehaviourTests {
    @Test("router.dismiss(i) out of range returns a not-applied result with a reason")
    func dismissOutOfRange() async throws {
        let report = try await FlowProjectFixture.run(["d.lua": """
            it("dismisses nothing", function()
              router.sheet("login")
              local r = router.dismiss(4)
              expect(r.applied).to_be(false)
              expect(r.kind).to_be("dismiss")
              expect(r.reason).to_be("no stack at index 4: there are 2 stacks (router.stacks() lists them)")
              expect(#router.stacks()).to_be(2)
              expect(router.dismiss(0).applied).to_be(false)
              expect(router.dismiss(1).reason).to_contain("root stack")
              expect(router.dismiss(2).applied).to_be(true)
            end)
            """])
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.results.count == 1)
    }

    @Test("router.pop(n) beyond the path says how many screens it popped")
    func popBeyondPath() async throws {
        let report = try await FlowProjectFixture.run(["p.lua": """
            it("pops what there is", function()
              router.pushMany{ "login", "c", "d", "login" }
              local r = router.pop(9)
              expect(r.applied).to_be(true)
              expect(r.count).to_be(4)
              expect(r.reason).to_be("popped 4 of 9: the stack held only 4 screens above its root")
              expect(router.pop().applied).to_be(false)
            end)
            it("pops one", function()
              router.push("login")
              expect(router.pop()).to_equal({ applied = true, kind = "pop" })
            end)
            it("dismisses a sheet it empties", function()
              router.sheet("login")
              router.push("c")
              local r = router.pop(3)
              expect(r.count).to_be(1)
              expect(r.reason).to_be("popped 1 of 3 and dismissed the sheet: it held only 1 screen above its root")
              expect(#router.stacks()).to_be(1)
            end)
            """])
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.results.count == 3)
    }

    @Test("router.userDismiss() on a full-screen cover is refused")
    func userDismissCover() async throws {
        let report = try await FlowProjectFixture.run(["c.lua": """
            it("keeps the cover", function()
              router.fullScreenCover("login")
              local r = router.userDismiss()
              expect(r.applied).to_be(false)
              expect(r.reason).to_contain("no swipe-down")
              expect(#router.stacks()).to_be(2)
              expect(#router.history()).to_be(1)
              router.dismiss()
              router.sheet("c")
              expect(router.userDismiss().applied).to_be(true)
            end)
            """])
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
    }

    @Test("a redirect chain ending in a loop says so on the top-level result, with the chain and file:line")
    func redirectLoopAtTopLevel() async throws {
        let report = try await FlowProjectFixture.run(["l.lua": """
            it("reports the loop", function()
              local r = router.push("a")
              expect(r.applied).to_be(false)
              expect(r.loop).to_be(true)
              expect(r.reason).to_match("^rules/[%w_]+%.lua:%d+: redirect loop: more than 8 redirects: push a → push b → push a")
              expect(r.redirect.reason).to_be("to a")
            end)
            it("has no loop field otherwise", function()
              local r = router.push({ name = "detail", id = "1" })
              expect(r.loop).to_be_nil()
            end)
            """])
        #expect(report.results.first?.passed == true, "\(FlowProjectFixture.failures(report))")
        let error = try #require(report.results.first?.scriptErrors.first)
        #expect(error.file?.hasPrefix("rules/") == true && error.line != nil, "listed at the rule: \(error)")
        #expect(error.message.contains("redirect loop"), "\(error)")
    }

    @Test("what a rules file prints while it loads is the report's rulesOutput; a rule's print is its test's output")
    func printsWhileLoading() async throws {
        let rules = "print('loading', 1)\n" + FlowProjectFixture.rules + "\nflow.guard('c', function() print('deciding c') end)\n"
        let report = try await FlowProjectFixture.run(["p.lua": """
            it("pushes c", function() expect(router.push("c").applied).to_be(true) end)
            """], rules: rules)
        #expect(report.rulesOutput == ["loading\t1"])
        #expect(report.results.map(\.output) == [["deciding c"]])
    }

    @Test("assigning a fact in a flow says to use app.facts")
    func factAssignmentInAFlow() async throws {
        let report = try await FlowProjectFixture.run(["f.lua": """
            it("assigns a fact", function() facts.isLoggedIn = true end)
            """])
        let failure = try #require(report.results.first?.failures.first)
        #expect(failure.message.hasSuffix("facts is read-only (cannot assign 'isLoggedIn'): a flow sets facts with app.facts{ name = value }"),
                "\(failure.message)")
    }

    @Test("a held deep link is not retried when app.facts changes no value")
    func heldLinkNotRetriedWithoutChange() async throws {
        let report = try await FlowProjectFixture.run(["h.lua": """
            it("waits for a real change", function()
              expect(router.open("bank://detail/7").status).to_be("pending")
              local entries = #router.history()
              app.facts{ isLoggedIn = false }
              app.facts{ isLoggedIn = false, isPremium = false }
              expect(#router.history()).to_be(entries)
              app.facts{ isLoggedIn = true }
              expect(router.top()).to_equal({ name = "detail", id = "7" })
              expect(router.pendingLink()).to_be_nil()
            end)
            """])
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
    }

    @Test("router.open of a non-URL suggests the manifest's scheme")
    func openSuggestsManifestScheme() async throws {
        let report = try await FlowProjectFixture.run(["o.lua": """
            it("explains", function()
              expect(function() router.open("not a url") end).to_fail("as in bank://products/42")
            end)
            """])
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
    }

    @Test("a deep link's reason reads as a sentence")
    func transactionWording() async throws {
        let report = try await FlowProjectFixture.run(["w.lua": """
            it("words the step", function()
              local r = router.open("bank://detail/7")
              expect(r.reason).to_be([[step 1 of 1 (push detail{id="7"}) was blocked by a guard: login required]])
            end)
            """])
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
    }

    @Test("manifest errors carry the line of the key")
    func manifestErrorLine() throws {
        let source = """
            return {
              routes = { splash = {}, home = {} },
              -- root = "nowhere"
              root = "splsh",
            }
            """
        #expect(throws: FlowScriptError.self) { try FlowManifest.parse(source: source) }
        do {
            _ = try FlowManifest.parse(source: source)
        } catch {
            #expect(error.line == 4)
            #expect(error.description.hasPrefix("routes.lua:4:"), "\(error.description)")
            #expect(error.message.contains("unknown route 'splsh' (did you mean 'splash'?)"))
        }
        let lenient = try FlowManifest.parseReportingProblems(source: source + "\n")
        #expect(lenient.manifest.routes.count == 2)
        #expect(lenient.manifest.root == nil)
        #expect(lenient.problems.map(\.line) == [4])
        let unknownKey = try FlowManifest.parseReportingProblems(source: "return {\n  routes = { a = {} },\n  fatcs = {},\n}")
        #expect(unknownKey.problems.first?.line == 3)
        #expect(unknownKey.problems.first?.message.contains("did you mean 'facts'") == true)
    }
}
