import FlowLua
import FlowLuaTestSupport
import FlowScript
import FlowStackTestSupport
import FlowTesting
import FlowStackCore
import Foundation
import Testing

/// The tabbed fixture project (Tests/Fixtures/tabs-app): its flows pass, and the manifest's
/// `tabs` are checked.
@MainActor
@Suite("Flows: tabs")
struct FlowTabsProjectTests {
    /// Tests/Fixtures/tabs-app.
    static var directory: URL {
        FlowStackBinary.packageRoot.appendingPathComponent("Tests/Fixtures/tabs-app")
    }

    @Test("every flow of the tabbed project passes, with no script error")
    func fixtureFlowsPass() async throws {
        let project = try FlowProject(directory: Self.directory)
        let report = await FlowTestRunner<FlowRouteValue>(project: project).run()
        #expect(report.results.count == (try DeclaredFlowTests.count(in: Self.directory.appendingPathComponent("flows"))))
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.results.allSatisfy { $0.scriptErrors.isEmpty })
    }

    @Test("the manifest's tabs are read in order; the first is selected at start")
    func manifestTabs() throws {
        let manifest = try FlowManifest.parse(source: """
            return {
              tabs = { { name = "feed", root = "feedHome" }, { name = "me", root = { name = "profile", id = "1" } } },
              routes = { feedHome = {}, profile = { params = { id = "string" } } },
            }
            """)
        #expect(manifest.tabNames == ["feed", "me"])
        #expect(manifest.tabs[1].root == FlowRouteValue("profile", ["id": .string("1")]))
        #expect(manifest.problem(withTab: "fed")?.contains("did you mean 'feed'") == true)
        #expect(manifest.problem(withTab: "me") == nil)
    }

    @Test("a tab root that is not a declared route is refused with did you mean")
    func manifestTabRootChecked() {
        #expect(throws: FlowScriptError.self) {
            try FlowManifest.parse(source: """
                return { tabs = { { name = "feed", root = "feedHom" } }, routes = { feedHome = {} } }
                """)
        }
        do {
            _ = try FlowManifest.parse(source: """
                return { tabs = { { name = "feed", root = "feedHom" } }, routes = { feedHome = {} } }
                """)
        } catch {
            #expect(error.message.contains("did you mean 'feedHome'"), "\(error)")
        }
    }

    @Test("two tabs with one name, or a mistyped key, are refused")
    func manifestTabMistakes() {
        for source in [
            #"return { tabs = { { name = "a", root = "x" }, { name = "a", root = "x" } }, routes = { x = {} } }"#,
            #"return { tabs = { { name = "a", rot = "x" } }, routes = { x = {} } }"#,
            #"return { tabs = { name = "a", root = "x" }, routes = { x = {} } }"#,
        ] {
            #expect(throws: FlowScriptError.self) { try FlowManifest.parse(source: source) }
        }
    }

    @Test("router.selectTab of an unknown tab is refused with did you mean, not a script error")
    func unknownTabInAFlow() async throws {
        let manifest = """
            return {
              tabs = { { name = "feed", root = "home" }, { name = "search", root = "a" } },
              routes = { home = {}, a = {}, b = {} },
            }
            """
        let report = try await FlowProjectFixture.run(["a.lua": """
            it("refuses", function()
              local result = router.selectTab("serch")
              expect(result.applied).to_be(false)
              expect(result.reason).to_contain("did you mean 'search'")
              expect(router.tab()).to_be("feed")
            end)
            """], rules: "", manifest: manifest)
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.results.allSatisfy { $0.scriptErrors.isEmpty })
    }

    @Test("a rule's redirect to an unknown tab names it with did you mean")
    func redirectToUnknownTab() async throws {
        let manifest = """
            return {
              tabs = { { name = "feed", root = "home" }, { name = "inbox", root = "a" } },
              routes = { home = {}, a = {}, b = {} },
            }
            """
        let rules = """
            flow.guard("b", function(op) return flow.redirect("selectTab", "inbx", "wrong tab") end)
            """
        let report = try await FlowProjectFixture.run(["a.lua": """
            it("refuses", function()
              local result = router.push("b")
              expect(result.applied).to_be(false)
            end)
            """], rules: rules, manifest: manifest)
        let errors = report.results.flatMap(\.scriptErrors).map(\.message).joined(separator: "\\n")
        #expect(errors.contains("did you mean 'inbox'"), "\(errors)")
    }

    @Test("rules see every tab beside the stacks (ctx.tabs), read-only; a router without tabs has none")
    func rulesSeeEveryTab() async throws {
        let manifest = """
            return {
              tabs = { { name = "feed", root = "home" }, { name = "search", root = "a" } },
              routes = { home = {}, a = {}, b = {}, c = {} },
            }
            """
        // The guard of c refuses while the feed tab holds b, whichever tab is selected.
        let rules = """
            flow.guard("c", function(op, stacks, ctx)
              local names = {}
              for _, tab in ipairs(ctx.tabs) do
                local routes = tab.stack.routes
                names[#names + 1] = tab.name .. (tab.selected and "*" or "") .. ":" .. routes[#routes].name
                if tab.name == "feed" and routes[#routes].name == "b" then
                  return false, "feed holds b: " .. table.concat(names, ",")
                end
              end
              if not pcall(function() ctx.tabs[1].name = "x" end) and not pcall(rawset, ctx.tabs, 1, {}) then
                return true
              end
              return false, "ctx.tabs is writable"
            end)
            """
        let report = try await FlowProjectFixture.run(["a.lua": """
            it("sees the other tab's stack", function()
              expect(router.push("b").applied).to_be(true)
              expect(router.selectTab("search").applied).to_be(true)
              local result = router.push("c")
              expect(result.applied).to_be(false)
              expect(result.reason).to_be("feed holds b: feed:b")
              expect(router.selectTab("feed").applied).to_be(true)
              expect(router.pop().applied).to_be(true)
              expect(router.push("c").applied).to_be(true)
            end)
            """], rules: rules, manifest: manifest)
        #expect(report.failedCount == 0, "\(FlowProjectFixture.failures(report))")
        #expect(report.results.allSatisfy { $0.scriptErrors.isEmpty }, "\(report.results.flatMap(\.scriptErrors))")

        let untabbed = try await FlowProjectFixture.run(["a.lua": """
            it("has no tabs", function()
              expect(router.push("a").applied).to_be(true)
            end)
            """], rules: """
            flow.guard("a", function(op, stacks, ctx) return ctx.tabs == nil and ctx.tab == nil, "tabs seen" end)
            """, manifest: "return { root = \"home\", routes = { home = {}, a = {} } }")
        #expect(untabbed.failedCount == 0, "\(FlowProjectFixture.failures(untabbed))")
    }
}
