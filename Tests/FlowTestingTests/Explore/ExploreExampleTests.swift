import FlowScript
import FlowTesting
import FlowStackCore
import Foundation
import FlowStackTestSupport
import Testing

/// The example app's own rules (`Scripts/`: three tabs, `opens` declared) explored under every
/// fact combination, at the bounds docs/exploring.md documents.
@Suite("Explore: the example project", .enabled(if: TestTier.slow))
@MainActor
struct ExploreExampleTests {
    static var scripts: URL { ExploreFixtures.packageRoot.appendingPathComponent("Scripts") }

    /// One screen per stack and one presented stack, deep enough to finish: complete.
    static let completeBounds = FlowExplorer.Options(depth: 6, maxStack: 1, maxPresented: 1, maxQueued: 0)
    /// The README's deeper look: depth 3 at the other defaults (21,499 states: about 45 s in a
    /// debug build, so run on request).
    static let readmeBounds = FlowExplorer.Options(depth: 3)

    @Test("Scripts at the defaults: complete to depth 2 under every combination, nothing found")
    func defaults() async throws {
        let report = try await FlowExplorer(project: try FlowProject(directory: Self.scripts)).run()
        #expect(!report.complete)
        #expect(report.completeDepth == 2)
        // 16 fact combinations times the answers of two hosts; facts are set only once a rule
        // reads them (confirmDiscard is asked by async navigations only): fewer assignments.
        #expect(report.factCombinations == 64)
        #expect(report.assignments > 1 && report.assignments < 64, "\(report.assignments)")
        #expect(report.findings.isEmpty, "\(report.json())")
        #expect(report.someFactsOnly["photoPicker"]?["host.requestPhotoAccess"] == [true])
        // The private tabs open signed in only (a signed-out tap waits behind the login sheet).
        #expect(report.someFactsOnly["profile"]?["isLoggedIn"] == [true])
    }

    @Test("Scripts with one screen per stack: complete; the routes only push opens are out of reach")
    func complete() async throws {
        let report = try await FlowExplorer(project: try FlowProject(directory: Self.scripts), options: Self.completeBounds).run()
        #expect(report.complete)
        #expect(report.diameter < Self.completeBounds.depth)
        // routes.lua declares these opened by push only, and one screen per stack pushes nothing.
        let unreachable = report.findings.filter { $0.kind == .unreachable }.compactMap(\.route)
        #expect(unreachable == ["checkout", "detail", "editor", "orders", "settings"], "\(report.json())")
        // Nothing else but the editor's save-before-leave rule, which needs a pushed editor.
        let others = report.findings.filter { $0.kind != .unreachable }
        #expect(others.map(\.kind) == [.deadRule], "\(report.json())")
        #expect(others.first?.location?.hasPrefix("rules/40-editing.lua:") == true)
    }

    @Test(
        "Scripts at the README's depth 3: nothing found (FLOWSTACK_EXPLORE_EXAMPLE=1)",
        .enabled(if: ProcessInfo.processInfo.environment["FLOWSTACK_EXPLORE_EXAMPLE"] == "1"))
    func readme() async throws {
        let report = try await FlowExplorer(project: try FlowProject(directory: Self.scripts), options: Self.readmeBounds).run()
        #expect(report.completeDepth == 3)
        #expect(report.states == 21_499)
        #expect(report.factCombinations == 64)
        #expect(report.findings.isEmpty, "\(report.json())")
    }
}
