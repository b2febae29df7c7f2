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
        return (project, try await FlowExplorer(project: project, options: options).run())
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

    @Test("facts rules run on an explored fact change: back to home on sign-out, the error is never met")
    func factsRulesRun() async throws {
        // The crashing precondition asks pushes only: the pop a facts rule asks for passes it.
        let pushes = Self.rules.replacingOccurrences(of: "flow.precondition(\"*\"", with: "flow.precondition(\"push\"")
        let (_, without) = try await Self.explore(factChanges: true, rules: pushes)
        #expect(without.findings.contains { $0.kind == .ruleError }, "\(without.json())")
        let signOut = pushes + """

            flow.on_facts_changed(function(changed, stacks, ctx)
              if changed.isLoggedIn and not facts.isLoggedIn then return { flow.op("setRoot", "home") } end
            end)
            """
        let (_, report) = try await Self.explore(factChanges: true, rules: signOut)
        #expect(!report.findings.contains { $0.kind == .ruleError }, "\(report.json())")
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

    /// A guard that holds the push of `orders` signed out, and fails when the held push runs.
    static let heldManifest = """
        return {
          root = "home", routes = { home = {}, login = {}, orders = {} }, facts = { isLoggedIn = false },
          links = { schemes = { "myapp" } },
          explore = { urls = { "myapp://orders" } },
        }
        """

    @Test("a held navigation belongs to its state: a fact change resumes it there (its rules run), and nowhere else")
    func heldNavigationResumes() async throws {
        let rules = """
            flow.guard("orders", function(op)
              if not facts.isLoggedIn then
                return flow.redirect("sheet", "login", "sign in to see your orders", { resume = true })
              end
              if op.source == "resume" then
                local order = nil
                return order.id ~= nil
              end
            end)
            """
        let project = try ExploreFixtures.project(manifest: Self.heldManifest, rules: ["10-orders.lua": rules])
        let report = try await FlowExplorer(
            project: project, options: FlowExplorer.Options(depth: 2, maxStack: 2, maxPresented: 1, factChanges: true)).run()
        let error = try #require(report.findings.first { $0.kind == .ruleError }, "\(report.json())")
        #expect(error.location == "rules/10-orders.lua:7")
        #expect(error.facts == ["isLoggedIn": false])
        #expect(error.trace == ["push orders", "set isLoggedIn true"])
        // The held push stays held once the login sheet is dismissed: that is the way back, no trap.
        #expect(!report.findings.contains { $0.kind == .trap }, "\(report.json())")
    }

    @Test("a held deep link belongs to its state: signing in retries it only where it was opened")
    func heldLinkRetried() async throws {
        let rules = """
            flow.deeplink("/orders", function(p) return { flow.op("push", "orders") } end)
            flow.guard("orders", function(op)
              if op.source ~= "deeplink" then return false, "orders opens from a link" end
              if not facts.isLoggedIn then return false, "sign in first" end
            end)
            """
        let invariant = """
            invariant("orders after a link", function(s) return s.top.name ~= "orders" end)
            """
        let project = try ExploreFixtures.project(
            manifest: Self.heldManifest, rules: ["10-orders.lua": rules], explore: ["orders.lua": invariant])
        let options = FlowExplorer.Options(depth: 2, maxStack: 2, maxPresented: 1, factChanges: true)
        let report = try await FlowExplorer(project: project, options: options).run()
        let broken = try #require(report.findings.first { $0.kind == .invariant }, "\(report.json())")
        // Reached by opening the link signed in; never by signing in where no link is held.
        #expect(broken.trace == ["open myapp://orders"])
        #expect(broken.facts == ["isLoggedIn": true])
        #expect(!report.findings.contains { $0.kind == .trap }, "\(report.json())")
    }
}
