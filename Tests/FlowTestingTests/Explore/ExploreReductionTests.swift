import FlowScript
import FlowTesting
import FlowStackCore
import Foundation
import Testing

/// What keeps exploration small without leaving anything out (the dialog queue's bound,
/// combinations that differ only in answers no rule asked for, explored once), and links.
@Suite("Explore: queue bound, facts split when read, and links")
@MainActor
struct ExploreReductionTests {
    /// A dialog guard that queues a second dialog behind a visible one: every `showDialog` adds
    /// one more to the queue.
    static let queueing = """
        return { root = "a", routes = { a = {} }, dialogs = { "note", "rate" } }
        """
    static let queueRule = ["10.lua": """
        flow.dialog_guard("rate", function(dialog, stacks, ctx)
          if ctx.dialog ~= nil and dialog.policy ~= "queue" then
            return flow.redirect("dialog", "rate", "waits", "queue")
          end
        end)
        """]

    @Test("the dialog queue is bounded by maxQueued: complete within it, one more state per queued dialog allowed")
    func queueBound() async throws {
        let project = try ExploreFixtures.project(manifest: Self.queueing, rules: Self.queueRule)
        let none = try await FlowExplorer(project: project, options: .init(depth: 8, maxStack: 1, maxPresented: 0, maxQueued: 0)).run()
        let one = try await FlowExplorer(project: project, options: .init(depth: 8, maxStack: 1, maxPresented: 0, maxQueued: 1)).run()
        let two = try await FlowExplorer(project: project, options: .init(depth: 8, maxStack: 1, maxPresented: 0, maxQueued: 2)).run()
        #expect(none.complete && one.complete && two.complete, "\(two.json())")
        // No dialog, note, rate; then note or rate with one rate queued, then with two.
        #expect(none.states == 3)
        #expect(one.states == 5)
        #expect(two.states == 7)
    }

    @Test("facts and host answers are split only when a rule reads them: combinations no rule tells apart are one")
    func splitWhenRead() async throws {
        let project = try ExploreFixtures.project(manifest: """
            return { root = "a", routes = { a = {}, b = {} }, facts = { gated = false },
              explore = { hostAnswers = { allowed = { true, false } } } }
            """, rules: ["10.lua": """
            flow.guard("b", function(op, stacks, ctx)
              if facts.gated and not host.allowed() then return false, "not allowed" end
            end)
            """])
        let bounds = FlowExplorer.Options(depth: 8, maxStack: 2, maxPresented: 1)
        let report = try await FlowExplorer(project: project, options: bounds).run()
        #expect(report.complete)
        #expect(report.factCombinations == 4)
        // gated = false never asks the host: one assignment for both answers; gated = true asks.
        #expect(report.assignments == 3, "\(report.json())")
        #expect(report.json().contains("\"assignments\" : 3"), "\(report.json())")
        // b is shown under both answers with gated = false (the host unasked there).
        #expect(report.someFactsOnly["b"]?["host.allowed"] == nil, "\(report.json())")
        // The states of exploring each combination on its own, those no rule tells apart once:
        // gated = false and gated = true answered true open b; gated = true answered false does not.
        let open = try await FlowExplorer(project: try ExploreFixtures.project(manifest: """
            return { root = "a", routes = { a = {}, b = {} } }
            """, rules: [:]), options: bounds).run()
        let refused = try await FlowExplorer(project: try ExploreFixtures.project(manifest: """
            return { root = "a", routes = { a = {}, b = {} } }
            """, rules: ["10.lua": "flow.guard(\"b\", function() return false, \"no\" end)"]), options: bounds).run()
        #expect(report.states == 2 * open.states + refused.states)
        // Splitting keeps the output byte-identical from run to run.
        let again = try await FlowExplorer(project: project, options: bounds).run()
        #expect(again.json() == report.json())
        #expect(report.findings.isEmpty, "\(report.json())")
    }

    @Test("a link handler that returns no plan is no rule error; one that raises is, with file:line")
    func links() async throws {
        let project = try ExploreFixtures.project(manifest: """
            return { root = "a", routes = { a = {}, b = {} }, links = { schemes = { "myapp" } },
              explore = { urls = { "myapp://b/", "myapp://b/x", "myapp://boom" } } }
            """, rules: ["80.lua": """
            flow.deeplink("/b/*", function(p)
              if p["*"] == "" then return nil end
              return { flow.op("push", "b") }
            end)

            flow.deeplink("/boom", function(p)
              return p.missing.field
            end)
            """])
        let report = try await FlowExplorer(project: project, options: .init(depth: 2, maxStack: 2, maxPresented: 0)).run()
        let errors = report.findings.filter { $0.kind == .ruleError }
        #expect(errors.map(\.location) == ["rules/80.lua:7"], "\(report.json())")
        #expect(errors.first?.trace == ["open myapp://boom"])
    }
}
