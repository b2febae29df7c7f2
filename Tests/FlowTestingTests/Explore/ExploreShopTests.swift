import FlowScript
import FlowStackTestSupport
import FlowTesting
import FlowStackCore
import Foundation
import Testing

/// The five problems planted in Tests/Fixtures/explore-shop, each found with its facts and the
/// shortest trace; the invariant that holds is not reported.
@Suite("Explore: the shop fixture", .enabled(if: TestTier.slow))
@MainActor
struct ExploreShopTests {
    func finding(_ kind: FlowExploreFinding.Kind) async -> [FlowExploreFinding] {
        await ExploreFixtures.shopReport.findings.filter { $0.kind == kind }
    }

    @Test("exactly the five planted problems are found")
    func fiveProblems() async {
        let shop = await ExploreFixtures.shopReport
        let kinds = shop.findings.map(\.kind)
        #expect(kinds == [.unreachable, .ruleError, .redirectLoop, .trap, .invariant], "\(shop.json())")
    }

    @Test("the gift card no facts open is unreachable")
    func unreachable() async {
        #expect(await finding(.unreachable).map(\.route) == ["giftCard"])
    }

    @Test("the library guard's error is reported with file:line, the stale-purchase facts and one step")
    func ruleError() async throws {
        let error = try #require(await finding(.ruleError).first)
        #expect(error.location == "rules/10-shop.lua:17")
        #expect(error.facts["isPremium"] == true)
        #expect(error.facts["isLoggedIn"] == false)
        #expect(error.trace == ["push library"])
        #expect(error.message.contains("attempt to index a nil value"))
    }

    @Test("the redirect loop exists only while banned and names both rules' targets")
    func redirectLoop() async throws {
        let loop = try #require(await finding(.redirectLoop).first)
        #expect(loop.facts["isBanned"] == true)
        #expect(loop.message.contains("setRoot suspended") && loop.message.contains("setRoot home"))
        #expect(loop.trace.count == 1)
    }

    @Test("the refund sheet is a trap while a refund is pending, one step from the root")
    func trap() async throws {
        let trap = try #require(await finding(.trap).first)
        #expect(trap.route == "refund")
        #expect(trap.facts["refundPending"] == true)
        #expect(trap.trace == ["sheet refund"])
    }

    @Test("the checkout pushed on a presented cart breaks the invariant; the invariant that holds is not reported")
    func invariant() async throws {
        let shop = await ExploreFixtures.shopReport
        let broken = try #require(await finding(.invariant).first)
        #expect(broken.invariant == "no checkout signed out")
        #expect(broken.facts["isLoggedIn"] == false)
        #expect(broken.trace == ["sheet cart", "push checkout"])
        #expect(!shop.findings.contains { $0.invariant == "root stack first" })
    }

    @Test("the same project gives byte-identical JSON, explored again by `flowstack explore` in a process of its own")
    func deterministic() async throws {
        // The second exploration runs beside this process's (not after it on the main actor), in
        // a process with hash seeds of its own: set and dictionary order cannot leak into the
        // report. It is the run FlowStackCLITests checks the JSON shape of, with the same bounds.
        async let again = ShopExploration.output
        let shop = await ExploreFixtures.shopReport
        let output = try await again
        #expect(output.status == 1, "the shop has findings: \(output.stderr)")
        #expect(output.stdout == shop.json() + "\n")
        #expect(shop.factCombinations == 32)
        #expect(shop.json().contains("\"complete\" : false"))
    }

    @Test("every emitted flow fails against the broken rules and passes once they are fixed")
    func emittedFlows() async throws {
        let shop = await ExploreFixtures.shopReport
        let project = try FlowProject(directory: ExploreFixtures.shopDirectory)
        let flows = FlowExploreFlowWriter.flows(
            for: shop.findings, root: FlowRouteValue("home"),
            invariantSources: FlowExploreFlowWriter.invariantSources(of: project))
        #expect(flows.map(\.name) == [
            "explore-rule-error-1.lua", "explore-redirect-loop-1.lua", "explore-trap-1.lua", "explore-invariant-1.lua",
        ])
        let sources = flows.map { FlowRulesSource(name: "flows/\($0.name)", text: $0.text) }
        let broken = FlowProject(directory: project.directory, manifest: project.manifest, rules: project.rules, flows: sources)
        let brokenReport = await FlowTestRunner<FlowRouteValue>(project: broken).run()
        #expect(brokenReport.results.count == 4)
        #expect(brokenReport.results.allSatisfy { !$0.passed }, "\(brokenReport.results.map(\.name))")
        let fixed = FlowProject(
            directory: project.directory, manifest: project.manifest, rules: try ExploreFixtures.fixedShopRules(), flows: sources)
        let fixedReport = await FlowTestRunner<FlowRouteValue>(project: fixed).run()
        #expect(fixedReport.results.count == 4)
        let failed = fixedReport.results.filter { !$0.passed }.map(\.name)
        #expect(failed.isEmpty, "\(failed)")
    }
}
