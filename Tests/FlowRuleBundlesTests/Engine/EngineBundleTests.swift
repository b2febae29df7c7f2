import FlowStackCore
import Foundation
import Testing
@testable import FlowRuleBundles
@testable import FlowScript

@MainActor
struct EngineBundleTests {
    let keys = FlowRuleBundleKeys.generate()

    func makeBundle(version: String, rule: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("engine-bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("rules"), withIntermediateDirectories: true)
        try Data(rule.utf8).write(to: directory.appendingPathComponent("rules/gate.lua"))
        try FlowRuleBundle.write(
            directory: directory, privateKey: try FlowRuleBundleSigningKey(base64: keys.privateKey),
            version: FlowRuleBundleVersion("1.0.0")!.bumped(to: version), minimumAppVersion: FlowRuleBundleVersion("1.0")!,
            expires: Date().addingTimeInterval(3_600)
        )
        return directory
    }

    func verifier() throws -> FlowRuleBundleVerifier {
        FlowRuleBundleVerifier(publicKey: try FlowRuleBundlePublicKey(base64: keys.publicKey), appVersion: FlowRuleBundleVersion("2.0")!)
    }

    static let blockEditor = #"flow.guard("editor", function() return false, "bundle v1" end)"#
    static let blockEditorV2 = #"flow.guard("editor", function() return false, "bundle v2" end)"#

    @Test func signedBundleLoadsAndDecides() throws {
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
        let bundle = try makeBundle(version: "1.0.0", rule: Self.blockEditor)
        defer { try? FileManager.default.removeItem(at: bundle) }
        let loaded = try engine.loadBundle(at: bundle, verifier: try verifier())
        #expect(loaded.version == FlowRuleBundleVersion("1.0.0"))
        #expect(engine.generation == 2)
        let router = FlowRouter<FlowRouteValue, String>(root: FlowRouteValue("home"))
        engine.install(into: router)
        let result = router.perform(.push(FlowRouteValue("editor"), target: .active))
        #expect(result.status == .blockedByGuard)
        #expect(result.reason == "bundle v1")
    }

    @Test func tamperedFileIsRefusedAndTheRulesInForceStay() throws {
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
        let first = try makeBundle(version: "1.0.0", rule: Self.blockEditor)
        let second = try makeBundle(version: "1.1.0", rule: Self.blockEditorV2)
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        try engine.loadBundle(at: first, verifier: try verifier())
        try Data(#"flow.guard("editor", function() end)"#.utf8).write(to: second.appendingPathComponent("rules/gate.lua"))
        let check = try verifier()
        do throws(FlowBundleLoadError) {
            try engine.loadBundle(at: second, verifier: check)
            Issue.record("a changed file must be refused")
        } catch {
            guard case .refused(.changedFile) = error else {
                Issue.record("expected a changed-file refusal, got \(error)")
                return
            }
            #expect(error.description.contains("gate.lua"), "\(error)")
        }
        #expect(engine.generation == 2)
        #expect(engine.bundleVersion == FlowRuleBundleVersion("1.0.0"))
        let router = FlowRouter<FlowRouteValue, String>(root: FlowRouteValue("home"))
        engine.install(into: router)
        #expect(router.perform(.push(FlowRouteValue("editor"), target: .active)).reason == "bundle v1")
    }

    @Test func olderBundleIsARollbackAndIsRefused() throws {
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
        let newer = try makeBundle(version: "1.2.0", rule: Self.blockEditorV2)
        let older = try makeBundle(version: "1.1.0", rule: Self.blockEditor)
        defer {
            try? FileManager.default.removeItem(at: newer)
            try? FileManager.default.removeItem(at: older)
        }
        let check = try verifier()
        try engine.loadBundle(at: newer, verifier: check)
        do throws(FlowBundleLoadError) {
            try engine.loadBundle(at: older, verifier: check)
            Issue.record("an older bundle must be refused")
        } catch {
            guard case .refused(.rollback) = error else {
                Issue.record("expected a rollback refusal, got \(error)")
                return
            }
        }
        #expect(engine.bundleVersion == FlowRuleBundleVersion("1.2.0"))
    }

    @Test func bundleSignedWithAnotherKeyIsRefused() throws {
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
        let bundle = try makeBundle(version: "1.0.0", rule: Self.blockEditor)
        defer { try? FileManager.default.removeItem(at: bundle) }
        let stranger = FlowRuleBundleVerifier(
            publicKey: try FlowRuleBundlePublicKey(base64: FlowRuleBundleKeys.generate().publicKey),
            appVersion: FlowRuleBundleVersion("2.0")!)
        do throws(FlowBundleLoadError) {
            try engine.loadBundle(at: bundle, verifier: stranger)
            Issue.record("a bundle signed with another key must be refused")
        } catch {
            guard case .refused(.badSignature) = error else {
                Issue.record("expected a bad signature, got \(error)")
                return
            }
        }
        #expect(engine.generation == 1)
    }
}

extension FlowRuleBundleVersion {
    /// The version parsed from `text` (test helper).
    func bumped(to text: String) -> FlowRuleBundleVersion { FlowRuleBundleVersion(text)! }
}
