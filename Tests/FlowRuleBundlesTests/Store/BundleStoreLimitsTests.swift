import FlowStackCore
import Foundation
import Testing
@testable import FlowRuleBundles
@testable import FlowScript

/// `install(data:)` refuses what launch would refuse, before it writes anything and before the
/// highest version seen moves.
@Suite("bundle store: the shared bundle limits")
struct BundleStoreLimitsTests {
    /// A signed archive of `files`, built by hand (`make` itself refuses files over the limits).
    static func signedArchive(_ fixture: StoreFixture, version: String, files: [String: Data]) throws -> Data {
        let manifest = FlowRuleBundleManifest(
            version: FlowRuleBundleVersion(version)!, minimumAppVersion: FlowRuleBundleVersion("1.0")!,
            expires: fixture.now.addingTimeInterval(86_400), createdAt: fixture.now.addingTimeInterval(-60),
            files: files.mapValues(FlowRuleBundle.sha256Hex))
        let bytes = try manifest.encoded()
        let signature = Data((try fixture.signingKey.sign(bytes).base64EncodedString() + "\n").utf8)
        return FlowRuleBundleArchive(manifest: bytes, signature: signature, files: files).encoded()
    }

    @Test("a signed archive holding a 9 MiB file is refused: nothing written, the highest version unmoved")
    func oversizedFileIsRefusedBeforeCommitting() throws {
        let fixture = try StoreFixture()
        var files = StoreFixture.files(version: "9.0")
        files["rules/big.lua"] = Data(repeating: UInt8(ascii: "-"), count: 9 << 20)
        let data = try Self.signedArchive(fixture, version: "9.0", files: files)
        #expect(data.count <= FlowRuleBundleLimits.maximumArchiveBytes, "only the file is over a limit")
        let store = try fixture.store()
        #expect {
            try store.install(data: data)
        } throws: { error in
            guard case .refused(.overLimit(_, "rules/big.lua", _))? = error as? FlowRuleBundleStoreError else { return false }
            return true
        }
        #expect(store.highestInstalledVersion == nil)
        #expect(store.installedVersions.current == nil)
        #expect(!fixture.listing().contains { $0.hasPrefix("bundles/") || $0 == "state.json" }, "\(fixture.listing())")
        // A lower version still installs and is what launch runs.
        #expect(try store.install(data: fixture.data(version: "1.0")) == .installed(FlowRuleBundleVersion("1.0")!))
        #expect(try fixture.store().launchBundle().bundle?.version == FlowRuleBundleVersion("1.0"))
    }

    @Test("more files than the limit, files deeper than the limit: refused at install as at launch")
    func countAndDepthAreRefused() throws {
        let fixture = try StoreFixture()
        var many = StoreFixture.files(version: "2.0")
        for index in 0..<FlowRuleBundleLimits.maximumFileCount { many["rules/many/r\(index).lua"] = Data("-- \(index)\n".utf8) }
        let store = try fixture.store()
        #expect {
            try store.install(data: Self.signedArchive(fixture, version: "2.0", files: many))
        } throws: { error in
            guard case .refused(.overLimit(_, nil, let detail))? = error as? FlowRuleBundleStoreError else { return false }
            return detail.contains("\(FlowRuleBundleLimits.maximumFileCount)")
        }
        var deep = StoreFixture.files(version: "3.0")
        let folders = Array(repeating: "d", count: FlowRuleBundleLimits.maximumFolderDepth).joined(separator: "/")
        deep["rules/\(folders)/deep.lua"] = Data("-- too deep\n".utf8)
        #expect {
            try store.install(data: Self.signedArchive(fixture, version: "3.0", files: deep))
        } throws: { error in
            guard case .refused(.overLimit(_, let file?, _))? = error as? FlowRuleBundleStoreError else { return false }
            return file.hasSuffix("deep.lua")
        }
        #expect(store.highestInstalledVersion == nil)
    }

    @Test("serve's archives keep to the limits too: make refuses a 9 MiB file")
    func makeRefusesWhatAppsRefuse() throws {
        let fixture = try StoreFixture()
        var files = StoreFixture.files(version: "1.0")
        files["rules/big.lua"] = Data(count: 9 << 20)
        #expect(throws: FlowRuleBundleError.self) {
            try fixture.archive(version: "1.0", files: files)
        }
        var archive = try fixture.archive(version: "1.0")
        #expect(throws: Never.self) { try FlowRuleBundleLimits.check(archive) }
        archive.files["rules/big.lua"] = Data(count: 9 << 20)
        #expect(throws: FlowRuleBundleError.self) { try FlowRuleBundleLimits.check(archive) }
    }

    @Test("a rules file that is not UTF-8 (which the engine cannot load) is refused at install, before committing")
    func nonUTF8RulesAreRefused() throws {
        let fixture = try StoreFixture()
        var files = StoreFixture.files(version: "5.0")
        files["rules/latin1.lua"] = Data([0x2D, 0x2D, 0x20, 0xE9, 0x0A])
        let store = try fixture.store()
        #expect {
            try store.install(data: Self.signedArchive(fixture, version: "5.0", files: files))
        } throws: { error in
            guard case .refused(.unreadable(_, "rules/latin1.lua", let detail))? = error as? FlowRuleBundleStoreError else { return false }
            return detail.contains("UTF-8")
        }
        #expect(store.highestInstalledVersion == nil)
        #expect(try store.install(data: fixture.data(version: "1.0")) == .installed(FlowRuleBundleVersion("1.0")!))
    }
}
