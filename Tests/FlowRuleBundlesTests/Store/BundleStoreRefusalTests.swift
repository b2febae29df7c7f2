import FlowStackCore
import Foundation
import Testing
@testable import FlowRuleBundles
@testable import FlowScript

@Suite("bundle store: refusals")
struct BundleStoreRefusalTests {
    /// Installs `data` over version 1.0 and returns the refusal; checks that nothing was written.
    func refusal(_ fixture: StoreFixture, _ data: Data) throws -> FlowRuleBundleError? {
        let store = try fixture.store()
        try store.install(data: fixture.data(version: "1.0"))
        let before = fixture.listing()
        defer { #expect(fixture.listing() == before, "a refused bundle writes nothing") }
        do {
            try store.install(data: data)
            return nil
        } catch {
            guard case .refused(let reason) = error else {
                Issue.record("expected a refusal, got \(error)")
                return nil
            }
            return reason
        }
    }

    @Test func everyKindOfTamperingIsRefused() throws {
        let fixture = try StoreFixture()
        let good = try fixture.archive(version: "2.0")
        var cases: [(String, Data, (FlowRuleBundleError) -> Bool)] = []

        let otherKey = try FlowRuleBundleSigningKey(base64: FlowRuleBundleKeys.generate().privateKey)
        cases.append(("another key", try fixture.archive(version: "2.0", key: otherKey).encoded(), { if case .badSignature = $0 { true } else { false } }))

        var editedManifest = good
        editedManifest.manifest = Data(String(decoding: good.manifest, as: UTF8.self).replacingOccurrences(of: "2.0", with: "9.0").utf8)
        cases.append(("edited manifest", editedManifest.encoded(), { if case .badSignature = $0 { true } else { false } }))

        var changed = good
        changed.files["rules/gate.lua"] = Data("flow.guard('editor', function() end)".utf8)
        cases.append(("changed file", changed.encoded(), { if case .changedFile(_, "rules/gate.lua", _, _) = $0 { true } else { false } }))

        var missing = good
        missing.files["rules/gate.lua"] = nil
        cases.append(("missing file", missing.encoded(), { if case .missingFile(_, "rules/gate.lua") = $0 { true } else { false } }))

        var added = good
        added.files["rules/evil.lua"] = Data("flow.guard('home', function() return false end)".utf8)
        cases.append(("added file", added.encoded(), { if case .unlistedFile(_, "rules/evil.lua") = $0 { true } else { false } }))

        var unsigned = good
        unsigned.signature = nil
        cases.append(("unsigned", unsigned.encoded(), { if case .unsigned = $0 { true } else { false } }))

        var garbageSignature = good
        garbageSignature.signature = Data("not a signature".utf8)
        cases.append(("garbage signature", garbageSignature.encoded(), { if case .malformedSignature = $0 { true } else { false } }))

        let escaping = try FlowRuleBundleManifest(
            version: FlowRuleBundleVersion("2.0")!, minimumAppVersion: FlowRuleBundleVersion("1.0")!,
            expires: fixture.now.addingTimeInterval(3_600), createdAt: fixture.now.addingTimeInterval(-60),
            files: ["../outside.lua": FlowRuleBundle.sha256Hex(Data("x".utf8))]).encoded()
        let escapingArchive = FlowRuleBundleArchive(
            manifest: escaping, signature: Data(try fixture.signingKey.sign(escaping).base64EncodedString().utf8),
            files: ["../outside.lua": Data("x".utf8)])
        cases.append(("path escape", escapingArchive.encoded(), { if case .pathEscapesBundle = $0 { true } else { false } }))

        cases.append(("expired", try fixture.archive(version: "2.0", expiresIn: -1).encoded(), { if case .expired = $0 { true } else { false } }))
        cases.append(("app too old", try fixture.archive(version: "2.0", minimumAppVersion: "3.0").encoded(), { if case .appTooOld = $0 { true } else { false } }))
        cases.append(("rollback", try fixture.archive(version: "0.9").encoded(), { if case .rollback = $0 { true } else { false } }))
        cases.append(("same version, other contents", try fixture.archive(version: "1.0", files: StoreFixture.files(version: "1.0", extra: 1)).encoded(),
                      { if case .sameVersionDifferentContent = $0 { true } else { false } }))
        cases.append(("not an archive", Data("<html>oops</html>".utf8), { if case .malformedArchive = $0 { true } else { false } }))
        var truncated = good.encoded()
        truncated.removeLast(truncated.count / 2)
        cases.append(("truncated", truncated, { if case .malformedArchive = $0 { true } else { false } }))
        cases.append(("too large", Data(count: FlowRuleBundleArchive.defaultMaximumBytes + 1), { if case .malformedArchive = $0 { true } else { false } }))

        for (name, data, matches) in cases {
            let fresh = try StoreFixture()
            let reason = try refusal(fresh, try Self.resigned(data, from: fixture, to: fresh))
            #expect(reason.map(matches) == true, "\(name): \(reason.map(String.init(describing:)) ?? "accepted")")
        }
    }

    /// The case's bytes, re-signed for `fresh` when they were signed by `fixture` (each case runs
    /// in its own store, with its own key).
    static func resigned(_ data: Data, from fixture: StoreFixture, to fresh: StoreFixture) throws -> Data {
        guard var archive = try? FlowRuleBundleArchive(data: data), let signature = archive.signature,
              let text = String(data: signature, encoding: .utf8), let raw = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)),
              fixture.publicKey.isValid(signature: raw, for: archive.manifest) else {
            return data
        }
        archive.signature = Data(try fresh.signingKey.sign(archive.manifest).base64EncodedString().utf8)
        return archive.encoded()
    }

    @Test func rollbackProtectionSurvivesARelaunchAndALostStateFile() throws {
        let fixture = try StoreFixture()
        try fixture.store().install(data: fixture.data(version: "2.0"))
        #expect(try fixture.store().highestInstalledVersion == FlowRuleBundleVersion("2.0"))
        #expect {
            try fixture.store().install(data: fixture.data(version: "1.5"))
        } throws: { error in
            if case .refused(.rollback(_, let version, let loaded)) = error as? FlowRuleBundleStoreError {
                return version == FlowRuleBundleVersion("1.5") && loaded == FlowRuleBundleVersion("2.0")
            }
            return false
        }
        try FileManager.default.removeItem(at: fixture.directory.appendingPathComponent("state.json"))
        #expect {
            try fixture.store().install(data: fixture.data(version: "1.5"))
        } throws: { error in
            if case .refused(.rollback) = error as? FlowRuleBundleStoreError { true } else { false }
        }
    }

    @Test func aTamperedInstalledBundleIsRefusedAtLaunchInFavourOfThePreviousOne() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store()
        try store.install(data: fixture.data(version: "1.0"))
        try store.install(data: fixture.data(version: "1.1"))
        let bundles = fixture.directory.appendingPathComponent("bundles")
        let newest = try #require(try FileManager.default.contentsOfDirectory(atPath: bundles.path).first { $0.hasPrefix("1.1-") })
        try Data("flow.guard('editor', function() end)".utf8).write(to: bundles.appendingPathComponent("\(newest)/rules/gate.lua"))
        let choice = try fixture.store().launchBundle()
        #expect(choice.bundle?.version == FlowRuleBundleVersion("1.0"))
        #expect(choice.refusals.count == 1)
        if case .changedFile(_, "rules/gate.lua", _, _)? = choice.refusals.first {} else { Issue.record("\(choice.refusals)") }
    }

    @Test func expiredOrTooNewInstalledBundlesFallBackToTheEmbeddedRules() async throws {
        let fixture = try StoreFixture()
        try fixture.store().install(data: fixture.data(version: "1.0"))
        var later = fixture.verifier()
        later.now = fixture.now.addingTimeInterval(2 * 86_400)
        let expired = try FlowRuleBundleStore(directory: fixture.directory, verifier: later).launchBundle()
        #expect(expired.bundle == nil)
        if case .expired? = expired.refusals.first {} else { Issue.record("\(expired.refusals)") }
        let downgraded = try FlowRuleBundleStore(directory: fixture.directory, verifier: fixture.verifier(appVersion: "1.9"))
        try await MainActor.run {
            let engine = try FlowRulesEngine<FlowRouteValue>(sources: [FlowRulesSource(name: "embedded.lua", text: "-- embedded\n")])
            let choice = engine.loadInstalledBundle(from: downgraded)
            #expect(choice.bundle == nil)
            if case .appTooOld? = choice.refusals.first {} else { Issue.record("\(choice.refusals)") }
            #expect(engine.generation == 1)
            #expect(engine.sourceNames == ["embedded.lua"])
        }
    }
}
