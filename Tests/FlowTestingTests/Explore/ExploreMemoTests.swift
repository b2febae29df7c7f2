import FlowScript
import FlowStackTestSupport
import FlowTesting
import FlowStackCore
import Foundation
import Testing

@testable import FlowTesting

/// The memo of operations' outcomes: an outcome is reused only under an assignment that gives
/// every value its decisions read the same answer, and exploring with it finds what running
/// every operation finds.
@Suite("Explore: outcomes memoized by what their decisions read")
@MainActor
struct ExploreMemoTests {
    static let emptyState = FlowRouter<FlowRouteValue, FlowDialogValue>(root: FlowRouteValue("a", [:])).state

    static func outcome(_ decision: String) -> FlowExplorer.Outcome {
        FlowExplorer.Outcome(transition: FlowExplorer.Transition(
            key: FlowExplorer.StateKey(codes: [1, 1, 0, 0, 0], combination: 0), changed: false, allowed: true,
            decision: decision, failures: []))
    }

    /// The decision an answer holds, "split on N", or "unknown".
    static func text(_ answer: FlowExploreMemo.Answer) -> String {
        switch answer {
        case .outcome(let outcome): outcome.transition.decision
        case .split(let variable): "split on \(variable)"
        case .unknown: "unknown"
        }
    }

    @Test("an outcome answers only where every value its decisions read is the same; an unset one splits")
    func answersByTheValuesRead() {
        var memo = FlowExploreMemo()
        let screens = memo.screensNumber([1, 1, 0, 0, 0])
        let step = FlowExploreStep.push(FlowRouteValue("b", [:]))
        let slot = memo.slot(screens, nil, step)
        // Variable 0 read as its value 1, then variable 2 as its value 0.
        memo.keep(Self.outcome("refused"), in: slot, reads: [.init(variable: 0, value: 1), .init(variable: 2, value: 0)])
        func ask(_ values: [Int?]) -> String {
            Self.text(memo.answer(slot, combination: 7) { values[$0] })
        }
        #expect(ask([1, nil, 0]) == "refused")
        // Variable 1 was never read: its value does not matter.
        #expect(ask([1, 0, 0]) == "refused")
        #expect(ask([1, 1, 0]) == "refused")
        // Another value of a variable read: not known, the operation runs.
        #expect(ask([0, nil, 0]) == "unknown")
        #expect(ask([1, nil, 1]) == "unknown")
        // Unset where the decision read it: the branch splits there, on the first one read.
        #expect(ask([nil, nil, nil]) == "split on 0")
        #expect(ask([1, nil, nil]) == "split on 2")
        // The key of an outcome from the memo is under the assignment asked about.
        if case .outcome(let outcome) = memo.answer(slot, combination: 7, value: { [1, nil, 0][$0] }) {
            #expect(outcome.transition.key.combination == 7)
            // It keeps no router state.
            #expect(outcome.transition.successor == nil)
        } else {
            Issue.record("no outcome")
        }
        // A decision that read nothing answers under every assignment; other steps are apart.
        let other = memo.slot(screens, 3, .pop)
        memo.keep(Self.outcome("popped"), in: other, reads: [])
        #expect(Self.text(memo.answer(other, combination: 0) { _ in nil }) == "popped")
        #expect(Self.text(memo.answer(memo.slot(screens, 4, .pop), combination: 0) { _ in nil }) == "unknown")
    }

    @Test("a rule that reads a fact in some states only: each state's outcome follows the facts it read there")
    func ruleReadingAFactInSomeStates() async throws {
        // `b` is refused as a sheet while isPaid is false, pushed always: the push never reads
        // the fact, the sheet does; `c` reads isPaid only when presented over `b`.
        let project = try ExploreFixtures.project(manifest: """
            return { root = "a", routes = { a = {}, b = {}, c = {} }, facts = { isPaid = false, other = false } }
            """, rules: ["10.lua": """
            flow.guard("b", function(op, stacks, ctx)
              if op.kind == "sheet" and not facts.isPaid then return false, "b is for subscribers as a sheet" end
            end)
            flow.guard("c", function(op, stacks, ctx)
              local front = stacks[#stacks]
              if front.routes[#front.routes].name == "b" and facts.isPaid then return false, "not over b when paid" end
            end)
            """])
        let report = try await FlowExplorer(project: project, options: .init(depth: 3, maxStack: 2, maxPresented: 1)).run()
        #expect(report.completeDepth == 3, "\(report.json())")
        // isPaid both ways; `other` never read.
        #expect(report.assignments == 2, "\(report.json())")
        #expect(report.findings.isEmpty, "\(report.json())")
        // c is shown under both values (pushed on a, on b only unpaid); b too (pushed).
        #expect(report.someFactsOnly.isEmpty, "\(report.json())")
        // Without the push, b shows only as a sheet: under isPaid = true only.
        let sheetOnly = try ExploreFixtures.project(manifest: """
            return { root = "a", routes = { a = {}, b = { opens = { "sheet" } } }, facts = { isPaid = false } }
            """, rules: ["10.lua": """
            flow.guard("b", function(op, stacks, ctx)
              if not facts.isPaid then return false, "b is for subscribers" end
            end)
            """])
        let paid = try await FlowExplorer(project: sheetOnly, options: .init(depth: 3, maxStack: 2, maxPresented: 1)).run()
        #expect(paid.someFactsOnly == ["b": ["isPaid": [true]]], "\(paid.json())")
    }

    @Test("a new state from the memo takes the router state a transition of its depth led to with the same screens, else runs again")
    func successorsShared() throws {
        let project = try ExploreFixtures.project(manifest: """
            return { root = "a", routes = { a = {}, b = {} }, facts = { isPaid = false } }
            """, rules: [:])
        let explorer = try FlowExplorer(project: project)
        let root = try explorer.prepare(explorer.assignments.root)
        let rootKey = explorer.key(of: root, combination: 0)
        let push = FlowExploreStep.push(FlowRouteValue("b", [:]))
        let ran = explorer.apply(push, to: root, key: rootKey)
        let pushed = try #require(ran.successor)
        #expect(ran.changed)
        // From the memo: no router state.
        var memoized = ran
        memoized.successor = nil
        let outcome = FlowExplorer.Outcome(transition: memoized)
        // Known screens: that router state, the operation not run again (the router still
        // shows the root).
        var known = [ran.key.codes: pushed]
        try explorer.router.restore(root)
        let shared = explorer.successor(of: outcome, step: push, from: root, key: rootKey, known: &known)
        #expect(shared.rootID == pushed.state.rootID && shared.stacks == pushed.state.stacks)
        #expect(explorer.router.state.stacks.last?.pathCount == 0)
        // Unknown screens: the operation runs again, and its router state is kept for the depth.
        var none: [[UInt32]: FlowExplorer.SuccessorState] = [:]
        let again = explorer.successor(of: outcome, step: push, from: root, key: rootKey, known: &none)
        #expect(explorer.key(of: again, combination: 0) == ran.key)
        #expect(none[ran.key.codes] != nil)
    }

    @Test("the shop fixture's JSON is the same on every run", .enabled(if: TestTier.slow))
    func deterministic() async throws {
        let directory = ExploreFixtures.packageRoot.appendingPathComponent("Tests/Fixtures/explore-shop12")
        let first = try await FlowExplorer(project: try FlowProject(directory: directory)).run()
        let second = try await FlowExplorer(project: try FlowProject(directory: directory)).run()
        #expect(first.json() == second.json())
    }
}
