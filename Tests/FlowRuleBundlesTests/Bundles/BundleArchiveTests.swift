import Foundation
import Testing
@testable import FlowRuleBundles
@testable import FlowScript

@Suite("bundle archives")
struct BundleArchiveTests {
    @Test func aSignedDirectoryPacksIntoAnArchiveThatVerifiesInMemory() throws {
        let fixture = try BundleFixture()
        try fixture.sign()
        let archive = try FlowRuleBundleArchive(directory: fixture.directory)
        #expect(archive.isSigned)
        #expect(archive.files.keys.sorted() == BundleFixture.initialFiles.keys.sorted())
        let decoded = try FlowRuleBundleArchive(data: archive.encoded())
        #expect(decoded == archive)
        #expect(decoded.tag == archive.tag)
        let manifest = try fixture.verifier().verify(archive: decoded)
        #expect(manifest.version == FlowRuleBundleVersion("1.4.2"))
        // The same checks as a directory: rollback below the highest version is refused.
        #expect(throws: FlowRuleBundleError.self) {
            try fixture.verifier().verify(archive: decoded, highestVersion: FlowRuleBundleVersion("1.5"))
        }
    }

    @Test func anUnsignedDevelopmentArchiveIsCheckedAgainstItsManifest() throws {
        var archive = try FlowRuleBundleArchive.make(
            files: ["rules/a.lua": Data("-- a\n".utf8)], version: FlowRuleBundleVersion("0.0.1")!,
            minimumAppVersion: FlowRuleBundleVersion("0")!, expires: Date().addingTimeInterval(60), signingKey: nil)
        #expect(!archive.isSigned)
        #expect(try archive.checkedAgainstManifest().files.keys.sorted() == ["rules/a.lua"])
        archive.files["rules/a.lua"] = Data("-- changed\n".utf8)
        #expect {
            try archive.checkedAgainstManifest()
        } throws: { error in
            if case .changedFile(_, "rules/a.lua", _, _) = error as? FlowRuleBundleError { true } else { false }
        }
        #expect(throws: FlowRuleBundleError.self) {
            try FlowRuleBundleArchive.make(
                files: ["../escape.lua": Data()], version: FlowRuleBundleVersion("1")!, minimumAppVersion: FlowRuleBundleVersion("1")!,
                expires: Date().addingTimeInterval(60), signingKey: nil)
        }
    }

    @Test func bundlesLoadRulesButNotFlowsNorTheManifest() throws {
        let sources = try FlowRulesSource.rules(from: [
            ("flows/f.lua", Data("it('x', function() end)".utf8)), ("routes.lua", Data("return {}".utf8)),
            ("rules/a.lua", Data("-- a".utf8)), ("README.txt", Data("text".utf8)),
        ], prefix: "")
        #expect(sources.map(\.name) == ["rules/a.lua"])
    }
}
