import FlowScript
import FlowTesting
import FlowStackCore
import Foundation

/// Runs flows in memory against a small banking project (tests of the flow DSL).
@MainActor
enum FlowProjectFixture {
    static let manifest = """
        return {
          root = "home",
          routes = {
            home = {}, a = {}, b = {}, c = {}, d = {}, login = {}, transfer = {},
            detail = { params = { id = "string" } },
          },
          dialogs = { "networkError" },
          facts = { isLoggedIn = false, isPremium = false },
          links = { schemes = { "bank" } },
        }
        """

    static let rules = """
        flow.guard("a", function(op) return flow.redirect("push", "b", "to b") end)
        flow.guard("b", function(op) return flow.redirect("push", "a", "to a") end)
        flow.guard("detail", function(op)
          if not facts.isLoggedIn then return false, "login required" end
        end)
        flow.guard("transfer", function(op)
          if not host.verify2FA(op.route.name, 3) then return false, "2FA failed" end
        end)
        flow.deeplink("/detail/:id", function(p)
          return { flow.op("push", { name = "detail", id = p.id }) }
        end)
        """

    /// The report of running `flows` (file name → text) with the fixture's manifest and rules.
    static func run(
        _ flows: [String: String], rules: String = rules, manifest: String? = manifest, filter: String? = nil,
        options: FlowTestRunner<FlowRouteValue>.Options = .init()
    ) async throws -> FlowTestReport {
        try await runner(flows, rules: rules, manifest: manifest, options: options).run(filter: filter)
    }

    /// A runner for `flows` with the fixture's manifest and rules.
    static func runner(
        _ flows: [String: String], rules: String = rules, manifest: String? = manifest,
        options: FlowTestRunner<FlowRouteValue>.Options = .init()
    ) throws -> FlowTestRunner<FlowRouteValue> {
        let project = FlowProject(
            directory: URL(fileURLWithPath: "/tmp/flow-fixture"),
            manifest: try manifest.map { try FlowManifest.parse(source: $0) },
            rules: [FlowRulesSource(name: "rules/bank.lua", text: rules)],
            flows: flows.sorted { $0.key < $1.key }.map { FlowRulesSource(name: "flows/\($0.key)", text: $0.value) })
        return FlowTestRunner<FlowRouteValue>(project: project, options: options)
    }

    /// Every failure of a report, one per line, for `#expect` comments.
    static func failures(_ report: FlowTestReport) -> String {
        (report.loadErrors.map(\.description) + report.results.flatMap { result in
            result.failures.map { "\(result.name): \($0.description)" }
        }).joined(separator: "\n")
    }
}
