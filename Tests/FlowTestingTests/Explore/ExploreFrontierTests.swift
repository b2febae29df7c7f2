import FlowScript
import FlowTesting
import FlowStackCore
import Foundation
import Testing

/// One frontier over (facts, state): facts split when read, every combination explored to the
/// same depth, findings that do not depend on the machine, and a run that can be interrupted.
@Suite("Explore: one frontier, facts split when read")
@MainActor
struct ExploreFrontierTests {
    /// 24 boolean facts, of which the rules read two.
    static func manyFacts() throws -> FlowProject {
        let facts = (1...24).map { "f\($0) = false" }.joined(separator: ", ")
        return try ExploreFixtures.project(manifest: """
            return { root = "a", routes = { a = {}, b = {}, c = {} }, facts = { \(facts) } }
            """, rules: ["10.lua": """
            flow.guard("b", function(op, stacks, ctx)
              if facts.f1 then return false, "not with f1" end
            end)
            flow.guard("c", function(op, stacks, ctx)
              if facts.f2 and op.kind == "sheet" then return false, "c is pushed with f2" end
            end)
            """])
    }

    @Test("24 boolean facts cost what the facts read cost: no product is built, and the assignments are counted")
    func manyFactsAreCheap() async throws {
        let report = try await FlowExplorer(project: try Self.manyFacts(), options: .init(depth: 20, maxStack: 2, maxPresented: 1, maxStates: 200)).run()
        #expect(report.factCombinations == 1 << 24)
        // f1 and f2 both ways; the other 22 facts never read.
        #expect(report.assignments == 4, "\(report.json())")
        // The budget bounds the states (a depth is finished past it, splits at most doubling it).
        #expect(report.states <= 400, "\(report.json())")
        #expect(report.someFactsOnly == ["b": ["f1": [false]]], "\(report.json())")
    }

    @Test("a run cut by --max-states has explored every combination to the same depth, and says how far")
    func cutRunIsCompleteToADepth() async throws {
        let project = try Self.manyFacts()
        let full = try await FlowExplorer(project: project, options: .init(depth: 20, maxStack: 2, maxPresented: 1)).run()
        #expect(full.complete)
        let cut = try await FlowExplorer(
            project: project, options: .init(depth: 20, maxStack: 2, maxPresented: 1, maxStates: full.states / 4)).run()
        #expect(!cut.complete)
        #expect(cut.completeDepth >= 1 && cut.completeDepth < full.diameter, "\(cut.json())")
        #expect(cut.json().contains("\"completeDepth\" : \(cut.completeDepth)"))
        // Both values of f1 reached depth 1: the root is not "shown only under some facts".
        #expect(cut.someFactsOnly["a"] == nil, "\(cut.json())")
        // Nothing unreachable within the depth explored completely: b and c are one step away.
        #expect(!cut.findings.contains { $0.kind == .unreachable }, "\(cut.json())")
    }

    @Test("unreachable routes and dead rules of an incomplete run are claimed within the depth explored completely")
    func incompleteClaimsSayTheDepth() async throws {
        let project = try ExploreFixtures.project(manifest: """
            return { root = "a", routes = { a = {}, b = {}, never = {} } }
            """, rules: ["10.lua": "flow.guard(\"never\", function() return false, \"never\" end)"])
        let report = try await FlowExplorer(project: project, options: .init(depth: 1, maxStack: 3, maxPresented: 1)).run()
        #expect(!report.complete)
        let unreachable = try #require(report.findings.first { $0.kind == .unreachable })
        #expect(unreachable.route == "never")
        #expect(unreachable.message.contains("within 1 step of the root"), "\(unreachable.message)")
    }

    @Test("a precondition whose dialog redirect a dialog rule redirects again is live, not dead")
    func redirectedRedirectIsLive() async throws {
        let project = try ExploreFixtures.project(manifest: """
            return { root = "a", routes = { a = {}, b = {} }, dialogs = { "offline" }, facts = { isOffline = false } }
            """, rules: ["10.lua": """
            flow.precondition("push", function(op, stacks, ctx)
              if facts.isOffline then return flow.redirect("dialog", "offline", "you are offline") end
            end)
            """, "20.lua": """
            flow.dialog_guard("offline", function(d, ctx)
              if d.policy ~= "ignoreIfVisible" then
                return flow.redirect("dialog", "offline", "one", "ignoreIfVisible")
              end
            end)
            """])
        let report = try await FlowExplorer(project: project, options: .init(depth: 2, maxStack: 2, maxPresented: 1)).run()
        #expect(!report.findings.contains { $0.kind == .deadRule }, "\(report.json())")
    }

    @Test("rules run without a wall-clock limit: only the instruction and memory budgets decide findings")
    func noTimeLimit() async throws {
        let project = try ExploreFixtures.project(manifest: """
            return { root = "a", routes = { a = {}, b = {} } }
            """, rules: [:])
        let explorer = try FlowExplorer(project: project)
        #expect(explorer.ruleTimeLimit == nil)
    }

    @Test("an interrupted run reports what it found so far, and the depth it was at")
    func interrupted() async throws {
        let explorer = try FlowExplorer(project: try Self.manyFacts(), options: .init(depth: 20, maxStack: 2, maxPresented: 1))
        explorer.interrupt()
        let report = await explorer.run()
        #expect(report.interruptedAtDepth == 0)
        #expect(!report.complete)
        #expect(report.json().contains("\"interruptedAtDepth\" : 0"))
    }

    @Test("invariants read facts through the read-only proxy: the state is split on the facts they read")
    func invariantReadsSplit() async throws {
        let project = try ExploreFixtures.project(manifest: """
            return { root = "a", routes = { a = {}, b = {} }, facts = { isAdmin = false, other = false } }
            """, rules: [:], explore: ["i.lua": """
            invariant("admins never see b", function(s)
              return not (s.facts.isAdmin and s.top.name == "b")
            end)
            """])
        let report = try await FlowExplorer(project: project, options: .init(depth: 2, maxStack: 2, maxPresented: 0)).run()
        let broken = try #require(report.findings.first { $0.kind == .invariant }, "\(report.json())")
        #expect(broken.facts["isAdmin"] == true)
        // `other` is never read: two assignments, not four.
        #expect(report.assignments == 2, "\(report.json())")
        let again = try await FlowExplorer(project: project, options: .init(depth: 2, maxStack: 2, maxPresented: 0)).run()
        #expect(again.json() == report.json())
    }

    @Test("a rule iterating facts reads them all: the branch is split on each")
    func pairsReadsEveryFact() async throws {
        let project = try ExploreFixtures.project(manifest: """
            return { root = "a", routes = { a = {}, b = {} }, facts = { x = false, y = false } }
            """, rules: ["10.lua": """
            flow.guard("b", function(op, stacks, ctx)
              local on = 0
              for _, value in pairs(facts) do if value then on = on + 1 end end
              if on == 2 then return false, "not with both" end
            end)
            """])
        let report = try await FlowExplorer(project: project, options: .init(depth: 2, maxStack: 2, maxPresented: 0)).run()
        #expect(report.assignments == 4, "\(report.json())")
        #expect(report.findings.isEmpty, "\(report.json())")
    }
}

/// Declared operations: a route's `opens` says how the app opens it.
@Suite("Explore: declared operations")
@MainActor
struct ExploreDeclaredOperationsTests {
    static let rules = ["10.lua": """
        flow.guard("b", function(op, stacks, ctx)
          if op.kind == "setRoot" then error("b is never a root") end
        end)
        """]

    @Test("explore tries only the operations a route declares; every one where it declares none")
    func onlyDeclared() async throws {
        let declared = try ExploreFixtures.project(manifest: """
            return { root = "a", routes = { a = {}, b = { opens = { "push", "sheet" } } } }
            """, rules: Self.rules)
        let report = try await FlowExplorer(project: declared, options: .init(depth: 2, maxStack: 2, maxPresented: 1)).run()
        #expect(!report.findings.contains { $0.kind == .ruleError }, "\(report.json())")
        let open = try ExploreFixtures.project(manifest: """
            return { root = "a", routes = { a = {}, b = {} } }
            """, rules: Self.rules)
        let everything = try await FlowExplorer(project: open, options: .init(depth: 2, maxStack: 2, maxPresented: 1)).run()
        #expect(everything.findings.contains { $0.kind == .ruleError && $0.trace == ["setRoot b"] }, "\(everything.json())")
        #expect(report.transitions < everything.transitions)
    }

    @Test("an operation opens does not know is an error with a suggestion")
    func unknownOperation() throws {
        #expect(throws: FlowScriptError.self) {
            try FlowManifest.parse(source: "return { root = \"a\", routes = { a = {}, b = { opens = { \"shet\" } } } }")
        }
        do {
            _ = try FlowManifest.parse(source: "return { root = \"a\", routes = { a = {}, b = { opens = { \"shet\" } } } }")
        } catch {
            #expect(error.message.contains("did you mean 'sheet'?"), "\(error)")
        }
        let manifest = try FlowManifest.parse(source: "return { root = \"a\", routes = { a = {}, b = { opens = { \"sheet\" } } } }")
        #expect(manifest.routes["b"]?.opens == ["sheet"])
        #expect(manifest.routes["a"]?.opens == nil)
    }
}

/// `flowstack diff` charges a change to what the operation names.
@Suite("Explore: diff sections and locations")
@MainActor
struct RulesDiffSectionTests {
    static let tabs = """
        return {
          tabs = { { name = "a", root = "aHome" }, { name = "b", root = "bHome" } },
          routes = { aHome = {}, bHome = {}, detail = {} },
          facts = { isPaid = false },
        }
        """

    @Test("a new selectTab precondition changes the tab it names, never the screens it was tapped from")
    func selectTabIsATabChange() async throws {
        let project = try ExploreFixtures.project(manifest: Self.tabs, rules: [:])
        let new = [FlowRulesSource(name: "rules/10.lua", text: """
            flow.precondition("selectTab", function(op)
              if op.tab == "b" and not facts.isPaid then return false, "paid" end
            end)
            """)]
        let report = try await FlowRulesDiff(
            project: project, old: [], new: new, options: .init(depth: 2, maxStack: 2, maxPresented: 1, maxQueued: 0)).run()
        #expect(report.routes.values.allSatisfy { $0 == .unchanged }, "\(report.json())")
        #expect(report.tabs == ["a": .unchanged, "b": .moreRestrictive], "\(report.json())")
        let change = try #require(report.changes.first)
        #expect(change.tab == "b" && change.route == nil)
        #expect(change.location == "rules/10.lua:1")
        #expect(change.factPattern == ["isPaid": [false]])
    }

    @Test("the location of a change is the rule that decided first in the chain, not the dialog rule that redirected it again")
    func locationIsTheFirstRule() async throws {
        let manifest = """
            return { root = "a", routes = { a = {}, b = {} }, dialogs = { "offline" }, facts = { isOffline = false } }
            """
        let dialogRule = FlowRulesSource(name: "rules/20.lua", text: """
            flow.dialog_guard("offline", function(d, ctx)
              if d.policy ~= "ignoreIfVisible" then
                return flow.redirect("dialog", "offline", "one", "ignoreIfVisible")
              end
            end)
            """)
        let precondition = FlowRulesSource(name: "rules/10.lua", text: """
            flow.precondition("push", function(op, stacks, ctx)
              if facts.isOffline then return flow.redirect("dialog", "offline", "you are offline") end
            end)
            """)
        let project = try ExploreFixtures.project(manifest: manifest, rules: [:])
        let report = try await FlowRulesDiff(
            project: project, old: [dialogRule], new: [precondition, dialogRule], options: .init(depth: 1, maxStack: 2, maxPresented: 1)).run()
        let change = try #require(report.changes.first { $0.route == "b" && $0.operation == "push b" }, "\(report.json())")
        #expect(change.location == "rules/10.lua:1", "\(report.json())")
        #expect(report.routes["b"] == .moreRestrictive)
    }

    @Test("a dialog's change is charged to the dialogs section")
    func dialogSection() async throws {
        let manifest = """
            return { root = "a", routes = { a = {}, b = {} }, dialogs = { "rate", "note" } }
            """
        let project = try ExploreFixtures.project(manifest: manifest, rules: [:])
        let new = [FlowRulesSource(name: "rules/10.lua", text: """
            flow.dialog_guard("rate", function(d, ctx) return false, "no rating" end)
            """)]
        let report = try await FlowRulesDiff(project: project, old: [], new: new, options: .init(depth: 1, maxStack: 2, maxPresented: 0)).run()
        #expect(report.dialogs == ["rate": .moreRestrictive, "note": .unchanged], "\(report.json())")
        #expect(report.routes.values.allSatisfy { $0 == .unchanged }, "\(report.json())")
    }
}
