import FlowStackTestSupport
import Foundation
import Testing
import FlowTesting

/// The FlowTesting landing page's example, as written: the example app's project run from Swift.
@Suite("FlowTesting article")
@MainActor
struct FlowTestingArticleTests {
    @Test("FlowTestRunner.run(project:) runs the example app's flows, all passing")
    func overviewExample() async throws {
        let scripts = FlowStackBinary.packageRoot.appendingPathComponent("Scripts")
        let report = try await FlowTestRunner.run(project: URL(fileURLWithPath: scripts.path))
        #expect(report.succeeded, "\(report.summary)")
        #expect(report.passedCount > 0 && report.failedCount == 0)
        #expect(report.summary == "\(report.passedCount) passed, 0 failed")
    }
}
