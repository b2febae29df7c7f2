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

    @Test("check takes a router.tabs() entry compared in a flow for a tab, not for a route's payload")
    func tabViewIsNotAPayload() async throws {
        let project = try TemporaryProject([
            "routes.lua": """
                return {
                  tabs = { { name = "feed", root = "feed" }, { name = "search", root = "find" } },
                  routes = { feed = {}, find = {} },
                }
                """,
            "flows/f.lua": """
                it("shows the tabs", function()
                  local tabs = router.tabs()
                  expect(tabs[1]).to_equal({ name = "feed", selected = true, stack = tabs[1].stack })
                  expect(tabs[2]).to_equal({ name = "find", selected = false })
                end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        // A tab's view ({ name, selected, stack }) with a tab's name is not a route literal; the
        // same shape named after a route that is not a tab is still checked.
        #expect(!output.stdout.contains("flows/f.lua:3:"), "\(output.stdout)")
        #expect(output.stdout.contains("flows/f.lua:4: error: route 'find' has no payload field 'selected'"), "\(output.stdout)")
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

    @Test("explore --emit-flows on a tabbed project writes flows that start on the first tab and fail until the rules are fixed")
    func emitFlowsWithTabs() async throws {
        let rules = """
            flow.guard("post", function(op)
              if op.route.id == "" then return false, "no post" end
            end)
            flow.precondition("*", function(op, stacks)
              if stacks[#stacks].routes[1].name == "locked" then return false, "locked" end
            end)
            flow.style.modal(function(c)
              if c.rootRoute.name == "locked" then return { interactiveDismissDisabled = true } end
            end)
            """
        let project = try TemporaryProject([
            "routes.lua": """
                return {
                  tabs = { { name = "feed", root = "home" }, { name = "search", root = "find" } },
                  routes = { home = {}, find = {}, post = { params = { id = "string" } }, locked = {} },
                }
                """,
            "rules/tabs.lua": rules,
        ])
        defer { project.remove() }
        let flows = project.url.appendingPathComponent("flows").path
        let explore = try await CLIRunner.run([
            "explore", project.path, "--depth", "1", "--max-stack", "2", "--max-queued", "0", "--emit-flows", flows,
        ])
        #expect(explore.status == 1, "\(explore.stdout)\(explore.stderr)")
        #expect(explore.stdout.contains("rule-error"), "\(explore.stdout)")
        #expect(explore.stdout.contains("trap"), "\(explore.stdout)")
        let written = try FileManager.default.contentsOfDirectory(atPath: flows).sorted()
        #expect(written.contains("explore-rule-error-1.lua") && written.contains("explore-trap-1.lua"), "\(written)")
        let trap = try String(contentsOfFile: flows + "/explore-trap-1.lua", encoding: .utf8)
        #expect(trap.contains("router.tab() == \"feed\""), "\(trap)")
        #expect(trap.contains("router.selectTab(\"feed\")"), "\(trap)")
        // They load and fail while the rules have the problems...
        let failing = try await CLIRunner.run(["test", project.path])
        #expect(failing.status == 1)
        #expect(!failing.stdout.contains("did not load"), "\(failing.stdout)")
        #expect(!failing.stdout.contains(" 0 failed"), "\(failing.stdout)")
        // ...and pass once they are fixed.
        let fixed = rules
            .replacingOccurrences(of: "if op.route.id", with: "if op.route and op.route.id")
            .replacingOccurrences(of: "return false, \"locked\"", with: "return true")
        try fixed.write(to: project.url.appendingPathComponent("rules/tabs.lua"), atomically: true, encoding: .utf8)
        let passing = try await CLIRunner.run(["test", project.path])
        #expect(passing.status == 0, "\(passing.stdout)")
    }
}
