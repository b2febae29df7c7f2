import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// Experiments in the rules: `experiments.<name>` read-only like facts, assigned by the hash for
/// the unit, overridden, filtered by an audience, exposed once, recorded in the history.
@Suite("Engine: experiments")
@MainActor
struct EngineExperimentTests {
    static let manifestSource = """
        return {
          root = "home",
          routes = { home = {}, editor = {}, paywall = {}, kids = {} },
          facts = { isKid = false, isPremium = false },
          experiments = {
            paywallStyle = { variants = { control = 50, annualFirst = 50 }, salt = "2026-12" },
            onboarding = { variants = { short = 10 }, salt = "" },
          },
        }
        """
    static var configuration: FlowRulesConfiguration {
        FlowRulesConfiguration(manifest: try! FlowManifest.parse(source: manifestSource))
    }

    static let rules = """
        flow.audience("paywallStyle", function(facts) return not facts.isKid end)
        flow.guard("editor", function(op)
          host.log(tostring(experiments.paywallStyle))
          if experiments.paywallStyle == "annualFirst" then
            return flow.redirect("sheet", "paywall", "annual first")
          end
        end)
        """

    @Test("No unit: not enrolled; a unit: the hash's variant, the same every time")
    func assignment() throws {
        let rig = try RulesRig(Self.rules, configuration: Self.configuration)
        rig.push("editor")
        #expect(rig.log == ["nil"])
        let experiment = try #require(Self.configuration.manifest?.experiments["paywallStyle"])
        // A unit of each arm, found by the hash.
        let annual = try #require((0..<100).map { "user-\($0)" }.first { experiment.variant(forUnit: $0) == "annualFirst" })
        rig.engine.setExperimentUnit(annual)
        let result = rig.push("editor")
        #expect(result.status == .redirected)
        #expect(rig.log.last == "annualFirst")
    }

    @Test("An override wins over the hash; the audience still decides; clearing restores the hash")
    func overrides() throws {
        let rig = try RulesRig(Self.rules, configuration: Self.configuration)
        var exposures: [FlowExposure] = []
        rig.engine.onExposure = { exposures.append($0) }
        try rig.engine.overrideExperiment("paywallStyle", variant: "annualFirst")
        #expect(rig.push("editor").status == .redirected)
        #expect(exposures == [FlowExposure(experiment: "paywallStyle", variant: "annualFirst", unit: nil, route: "editor", kind: "push")])
        #expect(rig.router.history.first?.experiments == ["paywallStyle": "annualFirst"])
        // Read again: no second exposure.
        rig.router.perform(FlowCommand(.dismissAll))
        rig.push("editor")
        #expect(exposures.count == 1)
        // Ineligible: nil, never exposed.
        try rig.engine.setFacts(["isKid": true])
        rig.clearLog()
        rig.push("editor")
        #expect(rig.log == ["nil"])
        #expect(exposures.count == 1)
        try rig.engine.setFacts(["isKid": false])
        try rig.engine.overrideExperiment("paywallStyle", variant: nil)
        rig.clearLog()
        rig.push("editor")
        #expect(rig.log == ["nil"])
        rig.engine.clearExperimentOverride()
        #expect(rig.engine.experimentOverrides.isEmpty)
    }

    @Test("Overriding an unknown experiment or variant says what was meant")
    func overrideNames() throws {
        let rig = try RulesRig(Self.rules, configuration: Self.configuration)
        #expect(throws: FlowScriptError.self) { try rig.engine.overrideExperiment("paywalStyle", variant: "control") }
        do {
            try rig.engine.overrideExperiment("paywallStyle", variant: "anualFirst")
            Issue.record("no error")
        } catch {
            #expect(error.message.contains("no variant 'anualFirst' (did you mean 'annualFirst'?)"), "\(error)")
        }
    }

    @Test("experiments is read-only, and an unknown name is an error at the rule's line")
    func readOnlyAndUnknown() throws {
        let rig = try RulesRig("""
            flow.guard("editor", function()
              experiments.paywallStyle = "control"
            end)
            flow.guard("kids", function()
              return experiments.paywalStyle == nil
            end)
            """, configuration: Self.configuration)
        let written = try #require(rig.push("editor").reason)
        #expect(written.contains("rules/test.lua:2: experiments is read-only (cannot assign 'paywallStyle')"), "\(written)")
        let unknown = try #require(rig.push("kids").reason)
        #expect(unknown.contains("rules/test.lua:5:"), "\(unknown)")
        #expect(unknown.contains("unknown experiment 'paywalStyle' (did you mean 'paywallStyle'?)"), "\(unknown)")
    }

    @Test("An audience for an undeclared experiment fails the load at its line")
    func audienceOfUnknown() throws {
        let error = try #require(loadError("""
            flow.audience("paywalStyle", function(facts) return true end)
            """, configuration: Self.configuration))
        #expect(error.line == 1)
        #expect(error.message.contains("unknown experiment 'paywalStyle' (did you mean 'paywallStyle'?)"), "\(error)")
    }

    @Test("A failing audience fails the rule that read the experiment, at the audience's line")
    func failingAudience() throws {
        let rig = try RulesRig("""
            flow.audience("paywallStyle", function(facts)
              return facts.nope
            end)
            flow.guard("editor", function() return experiments.paywallStyle == nil end)
            """, configuration: Self.configuration)
        let reason = try #require(rig.push("editor").reason)
        #expect(reason.contains("rules/test.lua:2:"), "\(reason)")
        #expect(reason.contains("unknown fact 'nope'"), "\(reason)")
    }

    @Test("Weights that add up to more than 100, a bad weight, an unknown key: errors at their line", arguments: [
        ("a = { variants = { x = 60, y = 50 }, salt = \"s\" }", "the weights add up to 110%"),
        ("a = { variants = { x = 0.5 }, salt = \"s\" }", "must weigh a whole percent from 0 to 100"),
        ("a = { variants = { x = 10 }, salt = \"s\", slat = 1 }", "unknown key 'slat' (did you mean 'salt'?)"),
        ("a = { variants = {}, salt = \"s\" }", "variants must map each variant's name to its weight"),
        ("a = { variants = { none = 10 }, salt = \"s\" }", "no variant may be named \"none\""),
        ("a = { variants = { x = 10 } }", "salt must be a string"),
    ])
    func manifestErrors(entry: String, message: String) throws {
        let source = "return {\n  routes = { home = {} },\n  experiments = {\n    \(entry),\n  },\n}\n"
        do {
            _ = try FlowManifest.parse(source: source)
            Issue.record("no error for \(entry)")
        } catch {
            #expect(error.message.contains(message), "\(error)")
            #expect(error.line == 4, "\(error)")
            #expect(error.file == "routes.lua")
        }
    }
}
