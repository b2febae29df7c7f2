import FlowStackCore
import Foundation
import Testing
@testable import FlowRuleBundles
@testable import FlowScript

/// Staged rollouts: a bundle's `rollout` installs it only on devices whose bucket is below it;
/// publishing the same version again with a wider rollout widens it; the store says why it
/// skipped one.
@Suite("bundle store: staged rollouts")
struct BundleStoreRolloutTests {
    /// A store on the fixture's directory for the device `unit`.
    func store(_ fixture: StoreFixture, unit: String?) throws -> FlowRuleBundleStore {
        try FlowRuleBundleStore(directory: fixture.directory, verifier: fixture.verifier(), rolloutUnit: unit)
    }

    func archive(_ fixture: StoreFixture, version: String, rollout: Double?) throws -> Data {
        try FlowRuleBundleArchive.make(
            files: StoreFixture.files(version: version), version: FlowRuleBundleVersion(version)!,
            minimumAppVersion: FlowRuleBundleVersion("2.0")!, expires: fixture.now.addingTimeInterval(86_400),
            createdAt: fixture.now.addingTimeInterval(-60), signingKey: fixture.signingKey, rollout: rollout
        ).encoded()
    }

    /// A unit whose bucket for `version` is in `range` (found by the documented hash).
    func unit(version: String, bucketIn range: Range<Int>) -> String {
        (0..<10_000).map { "device-\($0)" }.first { range.contains(FlowExperimentHash.bucket(seed: "bundle:\(version):", unit: $0)) }!
    }

    @Test("a device below the rollout installs it; one above skips it, told why; a wider republish of the same version reaches it")
    func staged() throws {
        let inside = unit(version: "1.5", bucketIn: 0..<1_000)
        let middle = unit(version: "1.5", bucketIn: 2_000..<5_000)
        let narrow = try StoreFixture()
        // The same signing key and clock for every device: one publisher.
        #expect(try store(narrow, unit: inside).install(data: archive(narrow, version: "1.5", rollout: 0.1)) == .installed(FlowRuleBundleVersion("1.5")!))

        let other = try StoreFixture(sharing: narrow)
        let otherStore = try store(other, unit: middle)
        let staged = try archive(other, version: "1.5", rollout: 0.1)
        do throws(FlowRuleBundleStoreError) {
            try otherStore.install(data: staged)
            Issue.record("installed outside the rollout")
        } catch {
            guard case .outsideRollout(let version, let rollout, let bucket?) = error else { Issue.record("\(error)"); return }
            #expect(version == FlowRuleBundleVersion("1.5"))
            #expect(rollout == 0.1)
            #expect(bucket >= 1_000)
            #expect(error.description.contains("rolled out to 10% of devices"), "\(error)")
        }
        #expect(try store(other, unit: middle).installedVersions.current == nil)
        // Widened to 50%: the middle device installs it; the first is already on it.
        let wider = try archive(narrow, version: "1.5", rollout: 0.5)
        #expect(try store(other, unit: middle).install(data: wider) == .installed(FlowRuleBundleVersion("1.5")!))
        #expect(try store(narrow, unit: inside).install(data: wider) == .alreadyInstalled(FlowRuleBundleVersion("1.5")!))
    }

    @Test("without a rollout unit a staged bundle is skipped; an unstaged one installs")
    func noUnit() throws {
        let fixture = try StoreFixture()
        #expect(throws: FlowRuleBundleStoreError.self) { try store(fixture, unit: nil).install(data: archive(fixture, version: "1.0", rollout: 0.9)) }
        #expect(try store(fixture, unit: nil).install(data: archive(fixture, version: "1.0", rollout: nil)) == .installed(FlowRuleBundleVersion("1.0")!))
    }

    @Test("the same version with other rules is still refused, staged or not")
    func sameVersionOtherRules() throws {
        let fixture = try StoreFixture()
        let device = unit(version: "1.0", bucketIn: 0..<1_000)
        try store(fixture, unit: device).install(data: archive(fixture, version: "1.0", rollout: 0.1))
        let changed = try FlowRuleBundleArchive.make(
            files: StoreFixture.files(version: "1.0", extra: 1), version: FlowRuleBundleVersion("1.0")!,
            minimumAppVersion: FlowRuleBundleVersion("2.0")!, expires: fixture.now.addingTimeInterval(86_400),
            createdAt: fixture.now.addingTimeInterval(-60), signingKey: fixture.signingKey, rollout: 0.5
        ).encoded()
        let deviceStore = try store(fixture, unit: device)
        do throws(FlowRuleBundleStoreError) {
            try deviceStore.install(data: changed)
            Issue.record("a different bundle installed under the same version")
        } catch {
            guard case .refused(.sameVersionDifferentContent) = error else { Issue.record("\(error)"); return }
        }
    }

    @Test("a rollout outside 0...1 is a malformed manifest")
    func badRollout() throws {
        let fixture = try StoreFixture()
        let badStore = try store(fixture, unit: "x")
        let bad = try archive(fixture, version: "1.0", rollout: 1.5)
        do throws(FlowRuleBundleStoreError) {
            try badStore.install(data: bad)
            Issue.record("installed")
        } catch {
            #expect(error.description.contains("rollout must be a fraction from 0 to 1"), "\(error)")
        }
    }
}
