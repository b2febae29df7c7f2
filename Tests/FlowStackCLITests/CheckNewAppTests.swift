import FlowStackTestSupport
import Foundation
import Testing

/// Mistakes a team writing a new app's rules from the docs makes, as `flowstack check` reports
/// them: each once, at its line, saying what to do; and what is not a mistake stays quiet.
@Suite("flowstack check on a new app's rules")
struct CheckNewAppTests {
    static let manifest = """
        return {
          root = "home",
          routes = { home = {}, plusDeals = {}, plusPaywall = {}, tracking = {}, results = { params = { query = "string" } } },
          facts = { isPlus = false },
          explore = {
            hostAnswers = { requestLocation = { true, false } },
          },
        }
        """

    @Test("a rule that assigns a fact is an error saying facts are read-only, declared or not")
    func factAssignment() async throws {
        let project = try TemporaryProject([
            "routes.lua": Self.manifest,
            "rules/paywall.lua": """
                flow.guard("plusDeals", function(op)
                  if not facts.isPlus then
                    facts.isPlus = true
                    facts["seenPaywall"] = true
                    return flow.redirect("fullScreenCover", "plusPaywall", "Munch+ required")
                  end
                end)
                flow.guard("tracking", function() return host.requestLocation() end)
                """,
            "flows/a.lua": """
                it("sets a fact", function()
                  facts.isPlus = true
                end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1)
        let expected = [
            "rules/paywall.lua:3: error: facts is read-only (cannot assign 'isPlus'): rules read facts, the app sets them (engine.setFacts)",
            "rules/paywall.lua:4: error: facts is read-only (cannot assign 'seenPaywall')",
            "flows/a.lua:2: error: facts is read-only (cannot assign 'isPlus'): a flow sets facts with app.facts{ isPlus = ... }",
        ]
        expectLines(of: output, startingWith: expected)
        #expect(!output.stdout.contains("unknown fact 'seenPaywall'"), "\(output.stdout)")
    }

    @Test("a misspelt flow function is reported once, by the static check, not again as the load error it causes")
    func loadErrorSaidOnce() async throws {
        let project = try TemporaryProject([
            "routes.lua": Self.manifest,
            "rules/paywall.lua": """
                flow.gaurd("plusDeals", function() return false end)
                flow.precondition("Push", function() return true end)
                flow.guard("tracking", function() return host.requestLocation() end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.status == 1)
        let line1 = output.lines.filter { $0.hasPrefix("rules/paywall.lua:1:") }
        #expect(line1 == ["rules/paywall.lua:1: error: flow has no 'gaurd' (did you mean 'guard'?)"], "\(output.stdout)")
        #expect(output.lines.filter { $0.hasPrefix("rules/paywall.lua:2:") }.count == 1, "\(output.stdout)")
        #expect(output.lines.last?.hasSuffix(": 2 errors, 0 warnings") == true, "\(output.stdout)")
    }

    @Test("explore.hostAnswers naming a host no rule calls is a warning at its line, with did you mean")
    func hostAnswersNobodyAsks() async throws {
        let project = try TemporaryProject([
            "routes.lua": Self.manifest,
            "rules/tracking.lua": """
                flow.guard("tracking", function() return host.requestLocaton() end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(output.lines.contains(
            "routes.lua:6: warning: explore.hostAnswers lists host.requestLocation, which no rule calls "
                + "(did you mean 'requestLocaton'?): exploration never gives these answers"), "\(output.stdout)")
    }

    @Test("a link handler reading a query item (short ones too) is quiet; a parameter missing its colon or misspelt is not")
    func queryItems() async throws {
        let project = try TemporaryProject([
            "routes.lua": Self.manifest,
            "rules/links.lua": """
                flow.deeplink("/search", function(p) return { flow.op("push", { name = "results", query = p.q }) } end)
                flow.deeplink("/results/:query", function(p) return { flow.op("push", { name = "results", query = p.qeury }) } end)
                flow.deeplink("/promo/code", function(p) return { flow.op("push", { name = "results", query = p.code }) } end)
                flow.deeplink("/watch/:id", function(p) return { flow.op("push", { name = "results", query = p.id .. (p.ep or "") .. (p.q or "") .. (p.t or "") }) } end)
                flow.deeplink("/shows/:season", function(p) return { flow.op("push", { name = "results", query = p.ep or p.seasn }) } end)
                flow.guard("tracking", function() return host.requestLocation() end)
                """,
        ])
        defer { project.remove() }
        let output = try await CLIRunner.run(["check", project.path])
        #expect(!output.stdout.contains("rules/links.lua:1:"), "\(output.stdout)")
        // Short query items beside a short parameter are not slips (p.ep, p.q, p.t with :id).
        #expect(!output.stdout.contains("rules/links.lua:4:"), "\(output.stdout)")
        #expect(output.lines.filter { $0.hasPrefix("rules/links.lua:5:") }.count == 1, "\(output.stdout)")
        #expect(output.lines.contains { $0.hasPrefix("rules/links.lua:5: warning:") && $0.hasSuffix("(did you mean 'p.season'?)") },
                "\(output.stdout)")
        #expect(output.lines.contains { $0.hasPrefix("rules/links.lua:2: warning:") && $0.hasSuffix("(did you mean 'p.query'?)") },
                "\(output.stdout)")
        #expect(output.lines.contains { $0.hasPrefix("rules/links.lua:3: warning:") && $0.hasSuffix("(did you mean '/promo/:code'?)") },
                "\(output.stdout)")
    }
}
