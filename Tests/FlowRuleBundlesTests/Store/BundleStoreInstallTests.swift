import FlowStackCore
import Foundation
import Testing
@testable import FlowRuleBundles
@testable import FlowScript

@Suite("bundle store: installs")
struct BundleStoreInstallTests {
    @Test func installedBundleIsChosenAtLaunchAndLoads() async throws {
        let fixture = try StoreFixture()
        #expect(try fixture.store().install(data: fixture.data(version: "1.0")) == .installed(FlowRuleBundleVersion("1.0")!))
        let choice = try fixture.store().launchBundle()
        #expect(choice.bundle?.version == FlowRuleBundleVersion("1.0"))
        #expect(choice.refusals.isEmpty)
        try await MainActor.run {
            let engine = try FlowRulesEngine<FlowRouteValue>(sources: [])
            let loaded = engine.loadInstalledBundle(from: try fixture.store())
            #expect(loaded.bundle != nil)
            #expect(engine.generation == 2)
            let router = FlowRouter<FlowRouteValue, String>(root: FlowRouteValue("home"))
            engine.install(into: router)
            #expect(router.perform(.push(FlowRouteValue("editor"), target: .active)).reason == "bundle 1.0")
        }
    }

    @Test func theSameBundleTwiceIsAlreadyInstalled() throws {
        let fixture = try StoreFixture()
        let data = try fixture.data(version: "1.0")
        try fixture.store().install(data: data)
        #expect(try fixture.store().install(data: data) == .alreadyInstalled(FlowRuleBundleVersion("1.0")!))
    }

    @Test func keepsThePreviousBundleAndDeletesOlderOnes() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store()
        for version in ["1.0", "1.1", "1.2"] { try store.install(data: fixture.data(version: version)) }
        let installed = store.installedVersions
        #expect(installed.current == FlowRuleBundleVersion("1.2"))
        #expect(installed.previous == FlowRuleBundleVersion("1.1"))
        #expect(fixture.listing().filter { $0.hasPrefix("staging/") }.isEmpty, "nothing is left in staging")
        let bundles = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.appendingPathComponent("bundles").path)
        #expect(bundles.count == 2)
    }

    @Test("a crash at every write point of an install leaves a loadable bundle")
    func crashAtEveryWritePoint() throws {
        var failures = 0
        for failAt in 1...200 {
            let fixture = try StoreFixture()
            try fixture.store().install(data: fixture.data(version: "1.0"))
            let failing = FailingFileSystem(failAt: failAt)
            let store = try fixture.store(fileSystem: failing)
            let next = try fixture.data(version: "2.0")
            let outcome = Result { () throws(FlowRuleBundleStoreError) in try store.install(data: next) }
            // Relaunch on the real disk: what is left must load.
            let relaunched = try fixture.store()
            let choice = relaunched.launchBundle()
            #expect(choice.refusals.isEmpty, "write point \(failAt): \(choice.refusals)")
            let version = try #require(choice.bundle?.version, "write point \(failAt): no bundle loads")
            switch outcome {
            case .success:
                // Either every write point was passed, or only the clean-up after the commit failed.
                #expect(version == FlowRuleBundleVersion("2.0"), "write point \(failAt)")
                if failing.changes < failAt {
                    #expect(failures >= 5, "an install makes several writes")
                    return
                }
            case .failure(let error):
                failures += 1
                guard case .writeFailed = error else {
                    Issue.record("write point \(failAt): \(error)")
                    continue
                }
                #expect(version == FlowRuleBundleVersion("1.0"), "write point \(failAt)")
                #expect(!FileManager.default.fileExists(atPath: fixture.directory.appendingPathComponent("staging").path))
                #expect(try relaunched.install(data: fixture.data(version: "2.0")) == .installed(FlowRuleBundleVersion("2.0")!))
            }
        }
        Issue.record("the install never succeeded within 200 write points")
    }

    @Test func aFullDiskIsReportedAndThePreviousBundleStays() throws {
        let fixture = try StoreFixture()
        try fixture.store().install(data: fixture.data(version: "1.0"))
        let full = FailingFileSystem(failAt: 3, error: CocoaError(.fileWriteOutOfSpace))
        #expect {
            try fixture.store(fileSystem: full).install(data: fixture.data(version: "2.0"))
        } throws: { error in
            guard case .diskFull(let path, _) = error as? FlowRuleBundleStoreError else { return false }
            return path.hasPrefix(fixture.directory.path)
        }
        #expect(try fixture.store().launchBundle().bundle?.version == FlowRuleBundleVersion("1.0"))
        let posixFull = FailingFileSystem(failAt: 1, error: POSIXError(.ENOSPC))
        #expect {
            try fixture.store(fileSystem: posixFull).install(data: fixture.data(version: "2.0"))
        } throws: { error in
            if case .diskFull = error as? FlowRuleBundleStoreError { return true } else { return false }
        }
        let message = FlowRuleBundleStoreError.diskFull(path: "/x", detail: "No space").description
        #expect(message.contains("disk is full"))
    }

    @Test func rollbackGoesBackOneStepAndTheWithdrawnBundleStaysOut() throws {
        let fixture = try StoreFixture()
        let store = try fixture.store()
        #expect(throws: FlowRuleBundleStoreError.self) { try store.rollback() }
        try store.install(data: fixture.data(version: "1.0"))
        let bad = try fixture.data(version: "2.0")
        try store.install(data: bad)
        #expect(try store.rollback() == FlowRuleBundleVersion("1.0"))
        #expect(try fixture.store().launchBundle().bundle?.version == FlowRuleBundleVersion("1.0"))
        #expect {
            try fixture.store().install(data: bad)
        } throws: { error in
            if case .withdrawn = error as? FlowRuleBundleStoreError { return true } else { return false }
        }
        #expect(try fixture.store().install(data: fixture.data(version: "2.1")) == .installed(FlowRuleBundleVersion("2.1")!))
    }
}
