import FlowScript
import FlowStackCore
import FlowStackTestSupport
import Testing
@testable import FlowTesting

/// The hostile projects' flows through the library runner, in process, so that the sanitizer
/// runs cover them (`flowstack test` runs them as processes in FlowStackCLITests).
@Suite("Hardening: hostile projects through the library runner", .enabled(if: TestTier.slow))
@MainActor
struct HostileFlowsInProcessTests {
    /// One project at a time: the runner works on the main actor, and 89 cases at once would
    /// queue ahead of every other main-actor test's next step.
    @Test("Every hostile project's flows pass with the library runner", .serialized, arguments: HostileProject.all)
    func containedInProcess(_ project: HostileProject) async throws {
        let report = try await FlowTestRunner<FlowRouteValue>.run(project: project.url)
        #expect(report.succeeded && !report.results.isEmpty,
                "\(project.name) escaped: \(report.issues.map(\.description).joined(separator: "\n"))")
    }
}
