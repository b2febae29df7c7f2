import FlowScript
import FlowStackCore
import Foundation

extension LuaBenchmarks {
    /// A manifest with one experiment, the unit enrolled in it.
    static let experimentManifest = """
        return {
          root = "home",
          routes = { home = {}, projects = {} },
          facts = { isPremium = true },
          experiments = { paywallStyle = { variants = { control = 50, annualFirst = 50 }, salt = "2026-12" } },
        }
        """

    /// A push + pop pair whose push is guarded by a rule that reads an experiment's assignment
    /// (`reads`), or the same rule reading a fact instead; nanoseconds per operation. The
    /// difference is what reading `experiments.x` costs a guard.
    static func experimentPush(reads: Bool) throws -> Double {
        let condition = reads ? "experiments.paywallStyle == \"annualFirst\"" : "facts.isPremium == false"
        let rules = """
            flow.guard("projects", function(op)
              if \(condition) then return true end
              return true
            end)
            """
        var configuration = FlowRulesConfiguration(manifest: try FlowManifest.parse(source: experimentManifest))
        configuration.logger.logLevel = .critical
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [FlowRulesSource(name: "rules/bench.lua", text: rules)], configuration: configuration)
        engine.setExperimentUnit("user-0")
        defer { engine.close() }
        return pushPop(
            through: engine, root: FlowRouteValue("home"), pushed: FlowRouteValue("projects"), depth: 0,
            below: { _ in FlowRouteValue("home") })
    }
}
