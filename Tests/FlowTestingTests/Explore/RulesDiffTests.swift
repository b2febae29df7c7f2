import FlowScript
import FlowTesting
import FlowStackCore
import Foundation
import Testing

/// `FlowRulesDiff`: exactly the routes whose decisions changed, in the right direction; a pure
/// refactor is no change.
@Suite("Explore: rules diff")
@MainActor
struct RulesDiffTests {
    static let manifest = """
        return { root = "home", routes = { home = {}, a = {}, b = {}, c = {} }, facts = { isLoggedIn = false } }
        """
    static let v1 = [FlowRulesSource(name: "rules/10.lua", text: """
        flow.guard("a", function(op, stacks, ctx)
          if not facts.isLoggedIn then return false, "sign in first" end
        end)
        flow.guard("c", function(op, stacks, ctx)
          if op.kind == "sheet" then return false, "c is pushed" end
        end)
        """)]
    /// v1 with `a`'s guard gone (more permissive) and `b` refused (more restrictive).
    static let v2 = [FlowRulesSource(name: "rules/10.lua", text: """
        flow.guard("b", function(op, stacks, ctx)
          return false, "b is gone"
        end)
        flow.guard("c", function(op, stacks, ctx)
          if op.kind == "sheet" then return false, "c is pushed" end
        end)
        """)]

    func diff(_ old: [FlowRulesSource], _ new: [FlowRulesSource]) async throws -> FlowDiffReport {
        let project = try ExploreFixtures.project(manifest: Self.manifest, rules: [:])
        return try await FlowRulesDiff(project: project, old: old, new: new, options: .init(depth: 2, maxStack: 2, maxPresented: 1)).run()
    }

    @Test("more permissive, more restrictive and unchanged routes, with the facts that matter")
    func directions() async throws {
        let report = try await diff(Self.v1, Self.v2)
        #expect(report.routes == ["home": .unchanged, "a": .morePermissive, "b": .moreRestrictive, "c": .unchanged], "\(report.json())")
        let permissive = try #require(report.changes.first { $0.route == "a" })
        #expect(permissive.factPattern == ["isLoggedIn": [false]])
        #expect(permissive.trace.count == 1)
        #expect(permissive.location == "rules/10.lua:1")
        let restrictive = try #require(report.changes.first { $0.route == "b" })
        #expect(restrictive.after.contains("b is gone"))
        #expect(restrictive.location == "rules/10.lua:1")
        #expect(report.complete == false)
        #expect(report.decisions > 0)
    }

    @Test("combinations that differ only in answers no rule asked for are decided once, and show the changes they share")
    func sharedCombinations() async throws {
        let withHost = """
            return {
              root = "home", routes = { home = {}, a = {}, b = {}, c = {} }, facts = { isLoggedIn = false },
              explore = { hostAnswers = { confirm = { true, false } } },
            }
            """
        let options = FlowExplorer.Options(depth: 2, maxStack: 2, maxPresented: 1)
        let plain = try await diff(Self.v1, Self.v2)
        let project = try ExploreFixtures.project(manifest: withHost, rules: [:])
        let report = try await FlowRulesDiff(project: project, old: Self.v1, new: Self.v2, options: options).run()
        // No rule calls host.confirm: its two answers decide alike, explored once.
        #expect(report.decisions == plain.decisions, "\(report.json())")
        #expect(report.routes == plain.routes)
        let restrictive = try #require(report.changes.first { $0.route == "b" })
        // Under every answer: the host is not a fact that matters.
        #expect(restrictive.factPattern.isEmpty, "\(restrictive.factPattern)")
        let permissive = try #require(report.changes.first { $0.route == "a" })
        #expect(permissive.factPattern == ["isLoggedIn": [false]])
    }

    @Test("a decision answered with a dialog reads as history steps, without Swift type names")
    func dialogDecision() async throws {
        let manifest = """
            return { root = "home", routes = { home = {}, a = {} }, dialogs = { "signIn" }, facts = { isLoggedIn = false } }
            """
        let old = [FlowRulesSource(name: "rules/10.lua", text: """
            flow.guard("a", function(op)
              if not facts.isLoggedIn then return flow.redirect("dialog", "signIn", "sign in first") end
            end)
            """)]
        let project = try ExploreFixtures.project(manifest: manifest, rules: [:])
        let report = try await FlowRulesDiff(project: project, old: old, new: [], options: .init(depth: 1, maxStack: 2, maxPresented: 1)).run()
        let change = try #require(report.changes.first { $0.route == "a" && $0.operation == "push a" }, "\(report.json())")
        #expect(change.before == "push a: blockedByGuard (sign in first) → showDialog signIn (replace): applied", "\(change.before)")
        #expect(!report.json().contains("FlowStackCore"))
    }

    @Test("a refactor that changes no decision is no change; another reason is a change")
    func refactor() async throws {
        let refactored = [FlowRulesSource(name: "rules/10.lua", text: """
            -- The same rules, reorganised.

            local function needsSignIn()
              return not facts.isLoggedIn
            end

            flow.guard("c", function(op) if op.kind == "sheet" then return false, "c is pushed" end end)

            flow.guard("a", function(op, stacks, ctx)
              if needsSignIn() then
                return false, "sign in first"
              end
            end)
            """)]
        let same = try await diff(Self.v1, refactored)
        #expect(same.isUnchanged, "\(same.json())")
        #expect(same.routes.values.allSatisfy { $0 == .unchanged })
        let reworded = [FlowRulesSource(name: "rules/10.lua", text: Self.v1[0].text.replacingOccurrences(of: "c is pushed", with: "c is a screen"))]
        let changed = try await diff(Self.v1, reworded)
        #expect(changed.routes["c"] == .changed)
        #expect(changed.changes.allSatisfy { $0.direction == .changed && $0.route == "c" })
    }

    @Test("a link whose plan a new guard refuses is a change of the link (the links section), not of the screens it was opened from")
    func linkChangesBelongToTheirRoute() async throws {
        let manifest = """
            return {
              root = "home", routes = { home = {}, a = {}, results = { params = { query = "string" } } },
              facts = { isLoggedIn = false }, links = { schemes = { "app" } },
              explore = { urls = { "app://search?q=pho" } },
            }
            """
        let link = """
            flow.deeplink("/search", function(p)
              return { flow.op("popToRoot"), flow.op("push", { name = "results", query = p.q }) }
            end)
            """
        let guarded = link + """

            flow.guard("results", function(op, stacks, ctx)
              if not facts.isLoggedIn then return false, "sign in to search" end
            end)
            """
        let project = try ExploreFixtures.project(manifest: manifest, rules: [:])
        let report = try await FlowRulesDiff(
            project: project, old: [FlowRulesSource(name: "rules/10.lua", text: link)],
            new: [FlowRulesSource(name: "rules/10.lua", text: guarded)], options: .init(depth: 2, maxStack: 2, maxPresented: 1)
        ).run()
        #expect(report.routes == ["home": .unchanged, "a": .unchanged, "results": .moreRestrictive], "\(report.json())")
        #expect(report.links == ["app://search?q=pho": .moreRestrictive], "\(report.json())")
        #expect(report.changes.contains { $0.link == "app://search?q=pho" && $0.route == nil }, "\(report.json())")
    }
}
