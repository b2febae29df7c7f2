import FlowScript
@testable import FlowTesting
import FlowStackCore
import Foundation
import Testing

/// `--fact-changes`: facts flipping between steps are steps of their own (`set isLoggedIn
/// false`), and the problems only they reach are found and emitted as flows that replay them.
@Suite("Explore: fact changes")
@MainActor
struct ExploreFactChangesTests {
    static let manifest = """
        return { root = "home", routes = { home = {}, settings = {} }, facts = { isLoggedIn = false } }
        """

    /// A rule that assumes a signed-in person on a screen only signed-in people open: it
    /// raises only when the person signs out while the screen is shown.
    static let rules = """
        flow.guard("settings", function(op, stacks, ctx)
          if not facts.isLoggedIn then return false, "sign in first" end
        end)

        flow.precondition("*", function(op, stacks, ctx)
          local front = stacks[#stacks]
          if front.routes[#front.routes].name == "settings" then
            local account = facts.isLoggedIn and { name = "ada" } or nil
            if account.name == "" then return false, "name the account first" end
          end
        end)
        """

    static let fixedRules = rules.replacingOccurrences(of: "if account.name == \"\"", with: "if account and account.name == \"\"")

    static let bounds = FlowExplorer.Options(depth: 3, maxStack: 2, maxPresented: 1)

    static func explore(factChanges: Bool, rules: String = rules) async throws -> (FlowProject, FlowExploreReport) {
        let project = try ExploreFixtures.project(manifest: manifest, rules: ["10-account.lua": rules])
        var options = bounds
        options.factChanges = factChanges
        return (project, await try FlowExplorer(project: project, options: options).run())
    }

    @Test("with facts fixed the sign-out error is never met; with fact changes it is, after `set isLoggedIn false`")
    func signOutError() async throws {
        let (_, fixed) = try await Self.explore(factChanges: false)
        #expect(!fixed.findings.contains { $0.kind == .ruleError }, "\(fixed.json())")
        let (_, changing) = try await Self.explore(factChanges: true)
        let error = try #require(changing.findings.first { $0.kind == .ruleError }, "\(changing.json())")
        #expect(error.location == "rules/10-account.lua:9")
        #expect(error.facts == ["isLoggedIn": true])
        #expect(error.trace == ["push settings", "set isLoggedIn false", "push home"])
        #expect(changing.json().contains("\"set isLoggedIn false\""))
    }

    @Test("the emitted flow replays the fact change with app.facts: it fails until the rule is fixed")
    func emittedFlow() async throws {
        let (project, report) = try await Self.explore(factChanges: true)
        let flows = FlowExploreFlowWriter.flows(for: report.findings, root: FlowRouteValue("home"), invariantSources: [])
        let flow = try #require(flows.first { $0.name == "explore-rule-error-1.lua" })
        #expect(flow.text.contains("app.reset{ facts = { isLoggedIn = true } }"))
        #expect(flow.text.contains("app.facts{ isLoggedIn = false }"))
        let sources = [FlowRulesSource(name: "flows/\(flow.name)", text: flow.text)]
        let broken = FlowProject(directory: project.directory, manifest: project.manifest, rules: project.rules, flows: sources)
        let brokenRun = await FlowTestRunner<FlowRouteValue>(project: broken).run()
        #expect(brokenRun.results.count == 1)
        #expect(brokenRun.results.allSatisfy { !$0.passed })
        let fixed = FlowProject(
            directory: project.directory, manifest: project.manifest,
            rules: [FlowRulesSource(name: "rules/10-account.lua", text: Self.fixedRules)], flows: sources)
        let fixedRun = await FlowTestRunner<FlowRouteValue>(project: fixed).run()
        #expect(fixedRun.results.count == 1)
        #expect(fixedRun.results.allSatisfy { $0.passed }, "\(fixedRun.results.map(\.failures))")
    }

    @Test("fact changes explore one graph from every combination's root, with the same byte-identical output")
    func deterministic() async throws {
        let (_, first) = try await Self.explore(factChanges: true)
        let (_, second) = try await Self.explore(factChanges: true)
        #expect(first.json() == second.json())
        #expect(first.factCombinations == 2)
        let (_, fixed) = try await Self.explore(factChanges: false)
        #expect(first.states >= fixed.states)
    }
}
