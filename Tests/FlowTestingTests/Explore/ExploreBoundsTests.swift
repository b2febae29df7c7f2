import FlowLua
import FlowScript
import FlowTesting
import FlowStackCore
import Foundation
import Testing

/// Exploration of small projects: bounds and completeness, dead rules, host answers, rules
/// that fail during exploration, and the manifest's explore section.
@Suite("Explore: bounds, rules and hosts")
@MainActor
struct ExploreBoundsTests {
    static let twoRoutes = """
        return { root = "a", routes = { a = {}, b = {} }, dialogs = { "note" }, facts = { mode = "x" } }
        """

    @Test("a small project is explored completely within its bounds, and not when a bound cuts it")
    func completeness() async throws {
        let project = try ExploreFixtures.project(manifest: Self.twoRoutes, rules: [:])
        let full = try await FlowExplorer(project: project, options: .init(depth: 20, maxStack: 2, maxPresented: 1)).run()
        #expect(full.complete)
        #expect(full.findings.isEmpty, "\(full.json())")
        #expect(full.factCombinations == 1)
        // Max-stack and max-presented only constrain the states: within them, it is complete.
        let shallow = try await FlowExplorer(project: project, options: .init(depth: 1, maxStack: 2, maxPresented: 1)).run()
        #expect(!shallow.complete)
        #expect(shallow.diameter == 1)
        #expect(shallow.states < full.states)
        let few = try await FlowExplorer(project: project, options: .init(depth: 20, maxStack: 2, maxPresented: 1, maxStates: 3)).run()
        #expect(!few.complete)
        #expect(few.states <= 3)
    }

    @Test("a guard that never decides anything is a dead rule; one that does is not")
    func deadRule() async throws {
        let project = try ExploreFixtures.project(manifest: Self.twoRoutes, rules: ["10.lua": """
            flow.guard("b", function(op, stacks, ctx)
              if facts.mode == "y" then return false, "never: mode is only ever x" end
            end)

            flow.guard("a", function(op, stacks, ctx)
              if op.kind == "sheet" then return false, "a is never a sheet" end
            end)
            """])
        let report = try await FlowExplorer(project: project, options: .init(depth: 3, maxStack: 2, maxPresented: 1)).run()
        let dead = report.findings.filter { $0.kind == .deadRule }
        #expect(dead.map(\.location) == ["rules/10.lua:1"], "\(report.json())")
        #expect(dead.first?.message.contains("flow.guard \"b\"") == true)
    }

    @Test("a host function with no listed answers is reported, never guessed; listed answers become facts")
    func hostAnswers() async throws {
        let rules = ["10.lua": """
            flow.guard("b", function(op, stacks, ctx)
              if not host.allowed() then return false, "not allowed" end
            end)
            """]
        let unlisted = try ExploreFixtures.project(manifest: Self.twoRoutes, rules: rules)
        let first = try await FlowExplorer(project: unlisted, options: .init(depth: 2, maxStack: 2, maxPresented: 0)).run()
        let unanswered = first.findings.filter { $0.kind == .unansweredHost }
        #expect(unanswered.count == 1)
        #expect(unanswered.first?.message.contains("hostAnswers = { allowed = { true, false } }") == true)
        #expect(!first.findings.contains { $0.kind == .ruleError }, "\(first.json())")

        let listed = try ExploreFixtures.project(manifest: """
            return { root = "a", routes = { a = {}, b = {} }, facts = { mode = "x" },
              explore = { hostAnswers = { allowed = { true, false } } } }
            """, rules: rules)
        let second = try await FlowExplorer(project: listed, options: .init(depth: 2, maxStack: 2, maxPresented: 0)).run()
        #expect(second.factCombinations == 2)
        #expect(!second.findings.contains { $0.kind == .unansweredHost })
        #expect(second.someFactsOnly["b"]?["host.allowed"] == [true], "\(second.json())")
    }

    @Test("a rule that breaks the instruction budget is a rule error with file:line, never a crash")
    func budget() async throws {
        let project = try ExploreFixtures.project(manifest: Self.twoRoutes, rules: ["10.lua": """
            flow.guard("b", function(op, stacks, ctx)
              while true do end
            end)
            """])
        let report = try await FlowExplorer(project: project, options: .init(depth: 1, maxStack: 2, maxPresented: 0)).run()
        let errors = report.findings.filter { $0.kind == .ruleError }
        #expect(errors.count == 1, "\(report.json())")
        #expect(errors.first?.location?.hasPrefix("rules/10.lua:") == true)
        #expect(errors.first?.trace.count == 1)
        #expect(report.findings.contains { $0.kind == .unreachable && $0.route == "b" })
    }

    @Test("a rules file that does not load is a load error with file:line")
    func loadError() throws {
        let project = try ExploreFixtures.project(manifest: Self.twoRoutes, rules: ["10.lua": "flow.guard(\"b\", function(\n"])
        #expect {
            _ = try FlowExplorer(project: project)
        } throws: { error in
            (error as? FlowScriptError)?.description.contains("rules/10.lua:") == true
        }
    }

    @Test("the explore section is read; a wrong key or value says what and where")
    func section() throws {
        let manifest = try FlowManifest.parse(source: """
            return { root = "a", routes = { a = {} }, facts = { tier = "free" },
              explore = { facts = { tier = { "free", "pro" } }, hostAnswers = { ask = { true, false } },
                urls = { "myapp://orders/7" }, params = { id = { "7" } } } }
            """)
        #expect(manifest.explore.facts["tier"] == ["free", "pro"])
        #expect(manifest.explore.hostAnswers["ask"] == [true, false])
        #expect(manifest.explore.urls == ["myapp://orders/7"])
        #expect(manifest.explore.params["id"] == ["7"])
        #expect {
            _ = try FlowManifest.parse(source: "return { root = \"a\", routes = { a = {} },\n  explore = { fatcs = {} } }")
        } throws: { error in
            let text = (error as? FlowScriptError)?.description ?? ""
            return text.contains("routes.lua:2") && text.contains("did you mean 'facts'")
        }
        #expect {
            _ = try FlowManifest.parse(source: "return { root = \"a\", routes = { a = {} }, explore = { urls = { 7 } } }")
        } throws: { error in
            (error as? FlowScriptError)?.description.contains("explore.urls") == true
        }
    }
}
