import FlowStackCore
import Foundation
import Testing
@testable import FlowScript

/// A style is resolved once per (context, rules generation, facts): SwiftUI asks for it on every
/// body evaluation. The rules below count their own runs in a local, so the title says how many
/// times they ran.
@Suite("Engine: resolved styles are kept")
@MainActor
struct EngineStyleCacheTests {
    static let countingRules = """
        local runs = 0
        flow.style.screen(function(c)
          runs = runs + 1
          return { navigationTitle = c.screenRoute.name .. " " .. runs .. (facts.dark and " dark" or "") }
        end)
        """

    private func title(_ rig: RulesRig, depth: Int = 0) -> String? {
        rig.router.resolvedStyle(stackIndex: 0, screenDepth: depth)?.screen.navigationTitle
    }

    @Test("asking again for the same screen runs no rule; another screen runs them once")
    func keptPerContext() throws {
        let rig = try RulesRig(Self.countingRules)
        #expect(title(rig) == "home 1")
        #expect(title(rig) == "home 1")
        rig.push("list")
        #expect(title(rig, depth: 1) == "list 2")
        #expect(title(rig, depth: 1) == "list 2")
        #expect(title(rig) == "home 1")
    }

    @Test("a fact change or a reload resolves again; setting a fact to its value does not")
    func factsAndGeneration() throws {
        let rig = try RulesRig(Self.countingRules)
        #expect(title(rig) == "home 1")
        try rig.engine.setFact("dark", true)
        #expect(title(rig) == "home 2 dark")
        try rig.engine.setFact("dark", true)
        #expect(title(rig) == "home 2 dark")
        try rig.engine.setFact("dark", nil)
        #expect(title(rig) == "home 3")
        guard case .loaded = rig.engine.reload(sources: [FlowRulesSource(name: "rules/test.lua", text: Self.countingRules)]) else {
            Issue.record("the rules must reload")
            return
        }
        #expect(title(rig) == "home 1")
    }

    @Test("a style rule that calls a host function runs every time: the host's answer can change")
    func hostCallsAreNotKept() throws {
        let rig = try RulesRig("""
            flow.style.screen(function(c) return { navigationTitle = host.theme() } end)
            """)
        let theme = Theme()
        rig.engine.registerHost("theme") { _ in [.string(theme.name)] }
        #expect(title(rig) == "light")
        theme.name = "dark"
        #expect(title(rig) == "dark")
    }

    /// The answer of the host function `theme`, changed by the test.
    @MainActor
    final class Theme {
        var name = "light"
    }
}
