import FlowScript
import FlowTesting
import FlowStackCore
import Foundation
import FlowStackTestSupport
import Testing

/// The example app's own rules (`Scripts/`) explored completely, under every fact combination,
/// within the bounds docs/exploring.md documents.
@Suite("Explore: the example project", .enabled(if: TestTier.slow))
@MainActor
struct ExploreExampleTests {
    static var scripts: URL { ExploreFixtures.packageRoot.appendingPathComponent("Scripts") }

    /// The quick bounds: depth 6, one screen per stack, no presented stack, no dialog queued.
    static let quickBounds = FlowExplorer.Options(depth: 6, maxStack: 1, maxPresented: 0, maxQueued: 0)
    /// The README's bounds: depth 6, one screen per stack, one presented stack, no dialog queued
    /// (31,412 states: about two minutes in a debug build, so run on request).
    static let readmeBounds = FlowExplorer.Options(depth: 6, maxStack: 1, maxPresented: 1, maxQueued: 0)

    @Test("Scripts within the quick bounds: complete under every combination; only the sheet-only promo is out of reach")
    func quick() async throws {
        let report = try await FlowExplorer(project: try FlowProject(directory: Self.scripts), options: Self.quickBounds).run()
        #expect(report.complete)
        // 16 fact combinations times the answers of two hosts; facts are set only once a rule
        // reads them (confirmDiscard is asked by async navigations only): fewer assignments.
        #expect(report.factCombinations == 64)
        #expect(report.assignments > 1 && report.assignments < 64, "\(report.assignments)")
        // rules/50-navigation.lua lets the promo open as a sheet only, and these bounds present nothing.
        #expect(report.findings.map(\.kind) == [.unreachable], "\(report.json())")
        #expect(report.findings.first?.route == "promo")
        #expect(report.someFactsOnly["photoPicker"]?["host.requestPhotoAccess"] == [true])
        #expect(report.diameter < Self.quickBounds.depth)
    }

    @Test(
        "Scripts within the README's bounds: complete under every combination, nothing found (FLOWSTACK_EXPLORE_EXAMPLE=1)",
        .enabled(if: ProcessInfo.processInfo.environment["FLOWSTACK_EXPLORE_EXAMPLE"] == "1"))
    func readme() async throws {
        let report = try await FlowExplorer(project: try FlowProject(directory: Self.scripts), options: Self.readmeBounds).run()
        #expect(report.complete)
        #expect(report.states == 31_412)
        #expect(report.factCombinations == 64)
        #expect(report.findings.isEmpty, "\(report.json())")
        #expect(report.diameter < Self.readmeBounds.depth)
    }
}
