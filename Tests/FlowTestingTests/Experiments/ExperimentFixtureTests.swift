import FlowScript
import FlowStackCore
import FlowStackTestSupport
import FlowTesting
import Foundation
import Testing

/// The experiments fixture (`Tests/Fixtures/experiments-paywall`): its flows pass (overrides,
/// exposures, the audience, the hash); `explore` finds the mistake `v2/` plants in one arm and
/// names that arm; `diff` charges the change to that arm.
@Suite("Experiments: the paywall fixture")
@MainActor
struct ExperimentFixtureTests {
    static let directory = FlowStackBinary.packageRoot.appendingPathComponent("Tests/Fixtures/experiments-paywall")
    static let bounds = FlowExplorer.Options(depth: 2, maxStack: 2, maxPresented: 1)

    @Test("Its flows pass: overrides, exposures, the audience and the hash")
    func flows() async throws {
        let report = await FlowTestRunner<FlowRouteValue>(project: try FlowProject(directory: Self.directory)).run()
        #expect(report.succeeded, "\(report.results.filter(\.failed))")
        #expect(report.passedCount == 6)
    }

    @Test("A flow that forces an unknown variant fails with \"did you mean\"")
    func unknownVariant() async throws {
        let project = try FlowProject(directory: Self.directory)
        let flow = FlowRulesSource(name: "flows/typo.lua", text: """
            it("forces a misspelt arm", function()
              app.experiments{ paywallStyle = "anualFirst" }
            end)
            """)
        let runner = FlowTestRunner<FlowRouteValue>(
            project: FlowProject(directory: project.directory, manifest: project.manifest, rules: project.rules, flows: [flow]))
        let report = await runner.run()
        let failure = try #require(report.results.first?.failures.first)
        #expect(failure.message.contains("no variant 'anualFirst' (did you mean 'annualFirst'?)"), "\(failure.message)")
    }

    @Test(
        "explore: every arm keeps the invariants in v1; v2 breaks one in annualFirst only, and says so",
        .enabled(if: TestTier.slow))
    func explore() async throws {
        let v1 = try await FlowExplorer(project: try FlowProject(directory: Self.directory), options: Self.bounds).run()
        #expect(v1.findings.isEmpty, "\(v1.json())")
        let v2 = try await FlowExplorer(project: try FlowProject(directory: Self.directory.appendingPathComponent("v2")), options: Self.bounds).run()
        let finding = try #require(v2.findings.first { $0.invariant == "the editor is premium-only" }, "\(v2.json())")
        #expect(finding.facts["experiments.paywallStyle"] == .string("annualFirst"))
        #expect(finding.facts["isPremium"] == .bool(false))
        #expect(v2.findings.count == 1, "\(v2.json())")
    }

    @Test("diff: the change to one arm is charged to that arm", .enabled(if: TestTier.slow))
    func diff() async throws {
        let project = try FlowProject(directory: Self.directory)
        let new = try FlowRulesSource.directory(Self.directory.appendingPathComponent("v2/rules"))
        let report = try await FlowRulesDiff(project: project, old: project.rules, new: new, options: Self.bounds).run()
        #expect(report.routes["editor"] == .morePermissive, "\(report.json())")
        #expect(report.changes.count == 1, "\(report.json())")
        let change = try #require(report.changes.first)
        #expect(change.factPattern["experiments.paywallStyle"] == [.string("annualFirst")], "\(report.json())")
    }
}
