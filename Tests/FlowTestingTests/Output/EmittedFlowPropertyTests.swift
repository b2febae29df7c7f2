import FlowLua
import FlowLuaTestSupport
import FlowScript
import FlowStackCore
import FlowStackTestSupport
@testable import FlowTesting
import Foundation
import Testing

@Suite("Output property: generated hostile names through the emitted-flow writer, re-read by Lua")
@MainActor
struct EmittedFlowPropertyTests {
    @Test("an emitted flow is one describe with one test, loads in Lua, fails on the broken rules and passes on fixed ones",
          arguments: 0..<12)
    func emittedFlows(seed: Int) async throws {
        var names = HostileNames(seed: UInt64(seed))
        let route = names.name("r")
        let dialog = names.name("d")
        let fact = names.name("f")
        let message = names.name("m")
        let param = names.name("p")
        let quoted = FlowLuaSourceText.string
        let manifest = """
            return {
              root = "home",
              routes = { home = {}, [\(quoted(route))] = { params = { [\(quoted(param))] = "string" } } },
              dialogs = { \(quoted(dialog)) },
              facts = { [\(quoted(fact))] = false },
              explore = { params = { [\(quoted(param))] = { \(quoted(message)) } } },
            }
            """
        let broken = "flow.guard(\(quoted(route)), function(op) error(\(quoted(message))) end)\n"
            + "flow.dialog_guard(\(quoted(dialog)), function() error(\(quoted(message)), 0) end)\n"
        let project = try ExploreFixtures.project(manifest: manifest, rules: ["10-guard.lua": broken])
        let report = try await FlowExplorer(project: project, options: .init(depth: 3, maxStack: 3, maxPresented: 1)).run()
        let flows = FlowExploreFlowWriter.flows(for: report.findings, root: FlowRouteValue("home"), invariantSources: [])
        #expect(!flows.isEmpty, "\(report.json())")

        for flow in flows {
            // Lua's own parser, with describe and it counted rather than run: one of each.
            let vm = try LuaVM()
            _ = try run(vm, "described, tests = 0, 0\ndescribe = function(_, body) described = described + 1 body() end\n"
                + "it = function() tests = tests + 1 end")
            let chunk = try vm.load(source: flow.text, chunkName: "flows/\(flow.name)")
            try vm.call(chunk)
            #expect(try run(vm, "return described, tests") == [.integer(1), .integer(1)], "\(flow.text)")
            for line in flow.text.split(separator: "\n", omittingEmptySubsequences: false) where line.hasPrefix("--") {
                #expect(!HostileText.hasLineBreak(String(line)) && !HostileText.hasControl(String(line)))
            }
        }
        let sources = flows.map { FlowRulesSource(name: "flows/\($0.name)", text: $0.text) }
        let brokenRun = await FlowTestRunner<FlowRouteValue>(project: FlowProject(
            directory: project.directory, manifest: project.manifest, rules: project.rules, flows: sources)).run()
        #expect(brokenRun.results.count == flows.count)
        #expect(brokenRun.results.allSatisfy { !$0.passed }, "\(brokenRun.results.map(\.name))")
        let fixedRules = [FlowRulesSource(name: "rules/10-guard.lua", text: "flow.guard(\(quoted(route)), function(op) end)\n")]
        let fixedRun = await FlowTestRunner<FlowRouteValue>(project: FlowProject(
            directory: project.directory, manifest: project.manifest, rules: fixedRules, flows: sources)).run()
        #expect(fixedRun.results.count == flows.count)
        #expect(fixedRun.results.allSatisfy { $0.passed }, "\(fixedRun.results.map(\.failures))")
    }
}
