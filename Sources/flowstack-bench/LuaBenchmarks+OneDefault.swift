import FlowScript
import FlowStackCore
import Foundation

extension LuaBenchmarks {
    /// Rules shaped as the issue describes the benchmark's: several guards and one default
    /// precondition (the example rules run three default preconditions per push and per pop).
    static let oneDefaultRules = """
        -- One default precondition: the login gate.
        local PUBLIC = { splash = true, onboarding = true, login = true }
        flow.precondition("*", function(op, stacks, ctx)
          if facts.isLoggedIn then return true end
          local route = op.route
          if route ~= nil and not PUBLIC[route.name] then return false, "login required" end
        end)

        -- Several guards.
        local function opensScreen(op) return op.kind ~= "popTo" end
        flow.guard("login", function(op)
          if not facts.hasSeenOnboarding then return flow.redirect("setRoot", "onboarding", "onboarding not finished") end
        end)
        flow.guard("editor", function(op)
          if opensScreen(op) and not facts.isPremium then return flow.redirect("fullScreenCover", "paywall", "premium required") end
        end)
        flow.guard("paywall", function() if facts.isPremium then return false, "already premium" end end)
        flow.guard("promo", function(op) if op.kind ~= "sheet" then return false, "promo opens as a sheet" end end)

        """

    /// A push + pop pair through `oneDefaultRules` (not a target figure: it shows what the issue's
    /// lighter workload costs next to `lua_guarded_push_ns`); nanoseconds per operation.
    static func oneDefaultPush() throws -> Double {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(oneDefaultRules.utf8).write(to: directory.appendingPathComponent("rules.lua"))
        var configuration = FlowRulesConfiguration()
        configuration.logger.logLevel = .critical
        let engine = try FlowRulesEngine<FlowRouteValue>(directory: directory, configuration: configuration)
        try engine.setFacts(["isLoggedIn": true, "hasSeenOnboarding": true, "isPremium": true])
        defer { engine.close() }
        return pushPop(through: engine, depth: 0)
    }
}
