import FlowStackTestSupport
import Foundation
import Testing

@Suite("flowstack bundle --rollout")
struct BundleRolloutCommandTests {
    @Test("--rollout 0.1 signs the share into bundle.json; a share outside 0...1 is refused")
    func rollout() async throws {
        let project = try TemporaryProject(["routes.lua": TemporaryProject.manifest, "rules/auth.lua": TemporaryProject.rules])
        defer { project.remove() }
        let keyURL = project.url.appendingPathComponent(".keys/rules.key")
        let publicURL = project.url.appendingPathComponent(".keys/rules.pub")
        #expect(try await CLIRunner.run(["keygen", "--private-key", keyURL.path, "--public-key", publicURL.path]).status == 0)
        let common = ["bundle", project.path, "--key", keyURL.path, "--version", "1.5.0", "--min-app", "2.0", "--expires", "2099-06-01"]
        let staged = try await CLIRunner.run(common + ["--rollout", "0.1"])
        #expect(staged.status == 0, "\(staged.stderr)")
        #expect(staged.stdout.contains("2 files, rolled out to 10% of devices"), "\(staged.stdout)")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: project.url.appendingPathComponent("bundle.json"))) as? [String: Any])
        #expect(manifest["rollout"] as? Double == 0.1)
        let everywhere = try await CLIRunner.run(common)
        #expect(everywhere.status == 0)
        let plain = try String(contentsOf: project.url.appendingPathComponent("bundle.json"), encoding: .utf8)
        #expect(!plain.contains("rollout"), "no rollout key without --rollout: \(plain)")
        let bad = try await CLIRunner.run(common + ["--rollout", "1.5"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("--rollout 1.5 is not a share of devices"), "\(bad.stderr)")
    }
}
