import FlowStackTestSupport
import Foundation
import Testing

/// The tools on a project with experiments: check, types, graph and explore.
@Suite("flowstack tools: experiments")
struct ExperimentToolingTests {
    static let fixture = "Tests/Fixtures/experiments-paywall"

    @Test("the experiments fixture checks clean")
    func fixtureChecksClean() async throws {
        let output = try await CLIRunner.run(["check", Self.fixture])
        #expect(output.status == 0, "\(output.stdout)")
        #expect(output.lines.last?.hasSuffix(": 0 errors, 0 warnings") == true, "\(output.stdout)")
    }

    @Test("check: a misspelt experiment, a misspelt variant (rules and flows), an audience of nothing, an unread experiment")
    func checkNames() async throws {
        let project = try TemporaryProject([
            "routes.lua": """
                return {
                  root = "home",
                  routes = { home = {}, editor = {} },
                  experiments = {
                    paywallStyle = { variants = { control = 50, annualFirst = 50 }, salt = "s" },
                    unused = { variants = { a = 10 }, salt = "s" },
                  },
                }
                """,
            "rules/paywall.lua": """
                flow.audience("paywalStyle", function(facts) return true end)
                flow.guard("editor", function()
                  if experiments.paywalStyle == "x" then return false end
                  return experiments.paywallStyle ~= "anualFirst"
                end)
                """,
            "flows/f.lua": """
                it("forces", function()
                  app.reset{ experiments = { paywallStyle = "contrl" } }
                  app.experiments{ paywalStyle = "control" }
                end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1)
        let expected = [
            "rules/paywall.lua:1: error: unknown experiment 'paywalStyle' (did you mean 'paywallStyle'?) (declared in routes.lua)",
            "rules/paywall.lua:3: error: unknown experiment 'paywalStyle' (did you mean 'paywallStyle'?) (declared in routes.lua)",
            "rules/paywall.lua:4: error: experiment 'paywallStyle' has no variant 'anualFirst' (did you mean 'annualFirst'?); its variants are annualFirst, control, and \"none\" is not enrolled",
            "flows/f.lua:2: error: experiment 'paywallStyle' has no variant 'contrl' (did you mean 'control'?); its variants are annualFirst, control, and \"none\" is not enrolled",
            "flows/f.lua:3: error: unknown experiment 'paywalStyle' (did you mean 'paywallStyle'?) (declared in routes.lua)",
            "routes.lua:6: warning: experiment 'unused' is declared but no rule reads experiments.unused: its variants change nothing (read it in a rule, or remove it)",
        ]
        for line in expected {
            #expect(output.lines.contains(line), "missing \(line) in\n\(output.stdout)")
        }
    }

    @Test("check: weights over 100 are an error at their line")
    func checkWeights() async throws {
        let project = try TemporaryProject([
            "routes.lua": """
                return {
                  routes = { home = {} },
                  experiments = {
                    paywallStyle = { variants = { control = 60, annualFirst = 50 }, salt = "s" },
                  },
                }
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1)
        #expect(output.stdout.contains("routes.lua:4: error: experiment 'paywallStyle': the weights add up to 110% (annualFirst 50 + control 60)"), "\(output.stdout)")
    }

    @Test("types declares ExperimentName, each experiment's variants and the experiments table")
    func types() async throws {
        let output = try await CLIRunner.run(["types", Self.fixture])
        #expect(output.status == 0)
        #expect(output.stdout.contains(#"---@alias ExperimentName "onboarding"|"paywallStyle""#), "\(output.stdout)")
        #expect(output.stdout.contains(#"---@alias PaywallStyleVariant "annualFirst"|"control""#))
        #expect(output.stdout.contains("---@field paywallStyle PaywallStyleVariant?"))
        #expect(output.stdout.contains("function flow.audience(experiment, eligible) end"))
        #expect(output.stdout.contains("function app.experiments(choices) end"))
    }

    @Test("explore on v2 names the arm that breaks the invariant", .enabled(if: TestTier.slow))
    func explore() async throws {
        let output = try await CLIRunner.run(["explore", Self.fixture + "/v2"])
        #expect(output.status == 1, "\(output.stdout)")
        #expect(output.stdout.contains("invariant 'the editor is premium-only'"), "\(output.stdout)")
        #expect(output.stdout.contains(#"experiments.paywallStyle = "annualFirst""#), "\(output.stdout)")
    }
}
