import FlowStackTestSupport
import Foundation
import Testing

/// The tools on a project with tabs: check, types and graph.
@Suite("flowstack tools: tabs")
struct TabsToolingTests {
    @Test("the tabbed fixture project checks clean")
    func fixtureChecksClean() async throws {
        let output = try await CLIRunner.run(["check", "Tests/Fixtures/tabs-app"])
        #expect(output.status == 0, "\(output.stdout)")
        #expect(output.lines.last?.hasSuffix(": 0 errors, 0 warnings") == true, "\(output.stdout)")
    }

    @Test("check reports tab names the manifest does not declare, with did you mean")
    func checkTabNames() async throws {
        let project = try TemporaryProject([
            "routes.lua": """
                return {
                  tabs = { { name = "feed", root = "home" }, { name = "search", root = "find" } },
                  routes = { home = {}, find = {} },
                }
                """,
            "rules/tabs.lua": """
                flow.precondition("push", function(op, stacks, ctx)
                  if ctx.tab == "serch" then return flow.redirect("selectTab", "fed", "go home") end
                end)
                """,
            "flows/f.lua": """
                it("selects", function()
                  app.reset{ tab = "serch" }
                  router.selectTab("serch")
                  router.selectTab("feed")
                end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1)
        let expected = [
            "flows/f.lua:2: error: unknown tab 'serch' (did you mean 'search'?) (declared in routes.lua)",
            "flows/f.lua:3: error: unknown tab 'serch' (did you mean 'search'?) (declared in routes.lua)",
            "rules/tabs.lua:2: error: unknown tab 'serch' (did you mean 'search'?) (declared in routes.lua)",
            "rules/tabs.lua:2: error: unknown tab 'fed' (did you mean 'feed'?) (declared in routes.lua)",
        ]
        for line in expected {
            #expect(output.lines.contains(line), "missing \(line) in\n\(output.stdout)")
        }
        #expect(!output.stdout.contains("'feed' (did"), "\(output.stdout)")
    }

    @Test("types declares the tab names, router.selectTab, router.tab and ctx.tab")
    func types() async throws {
        let output = try await CLIRunner.run(["types", "Tests/Fixtures/tabs-app"])
        #expect(output.status == 0)
        #expect(output.stdout.contains(#"---@alias TabName "feed"|"search"|"profile""#), "\(output.stdout)")
        #expect(output.stdout.contains("function router.selectTab(tab) end"))
        #expect(output.stdout.contains("function router.selectTabAsync(tab) end"))
        #expect(output.stdout.contains("function router.tab() end"))
        #expect(output.stdout.contains("---@field tab? TabName the selected tab (nil without tabs)"))
    }

    @Test("graph draws each tab as a cluster around its routes")
    func graph() async throws {
        let output = try await CLIRunner.run(["graph", "Tests/Fixtures/tabs-app", "--format", "dot"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("subgraph cluster_tab_1 {\n    label=\"tab feed\";"), "\(output.stdout)")
        #expect(output.stdout.contains("subgraph cluster_tab_2 {\n    label=\"tab search\";"))
        #expect(output.stdout.contains("label=\"selectTab"))
        let mermaid = try await CLIRunner.run(["graph", "Tests/Fixtures/tabs-app"])
        #expect(mermaid.stdout.contains("subgraph tab_1[\"tab feed\"]"), "\(mermaid.stdout)")
    }
}
