import Foundation
import Testing
@testable import FlowRuleBundles
@testable import FlowScript

/// One test per reason a bundle is refused: each checks the exact error and that its message
/// names the file and the fix.
@Suite("Rule bundles: refusals")
struct BundleRefusalTests {
    @Test func aMissingDirectoryIsRefused() throws {
        let fixture = try BundleFixture()
        let absent = fixture.directory.appendingPathComponent("absent")
        #expect(throws: FlowRuleBundleError.notADirectory(bundle: absent.path)) {
            try fixture.verifier().verify(directory: absent)
        }
    }

    @Test func anUnsignedDirectoryIsRefused() throws {
        let fixture = try BundleFixture()
        let error = try fixture.refusal()
        #expect(error == .missingManifest(bundle: fixture.directory.path))
        #expect(error?.description.contains("flowstack bundle") == true)
    }

    @Test func aMissingSignatureIsRefused() throws {
        let fixture = try BundleFixture()
        try fixture.sign()
        try FileManager.default.removeItem(at: fixture.url(FlowRuleBundle.signatureFileName))
        #expect(try fixture.refusal() == .missingSignature(bundle: fixture.directory.path))
    }

    @Test func aSignatureThatIsNotBase64IsRefused() throws {
        let fixture = try BundleFixture()
        try fixture.sign()
        try Data("this is not a signature".utf8).write(to: fixture.url(FlowRuleBundle.signatureFileName))
        #expect(try fixture.refusal() == .malformedSignature(bundle: fixture.directory.path, detail: "it is not base64 text"))
        try Data(Data(repeating: 1, count: 32).base64EncodedString().utf8).write(to: fixture.url(FlowRuleBundle.signatureFileName))
        #expect(try fixture.refusal() == .malformedSignature(
            bundle: fixture.directory.path, detail: "it holds 32 bytes; an Ed25519 signature holds 64"))
    }

    @Test func aBundleSignedWithAnotherKeyIsRefused() throws {
        let fixture = try BundleFixture()
        try fixture.sign()
        let otherKey = try FlowRuleBundlePublicKey(base64: FlowRuleBundleKeys.generate().publicKey)
        let error = try fixture.refusal(key: otherKey)
        #expect(error == .badSignature(bundle: fixture.directory.path))
        #expect(error?.description.contains("another key signed it") == true)
    }

    @Test func aManifestEditedAfterSigningIsRefused() throws {
        let fixture = try BundleFixture()
        try fixture.sign(version: "1.4.2")
        let manifestURL = fixture.url(FlowRuleBundle.manifestFileName)
        let edited = String(decoding: try Data(contentsOf: manifestURL), as: UTF8.self)
            .replacingOccurrences(of: "\"1.4.2\"", with: "\"9.4.2\"")
        try Data(edited.utf8).write(to: manifestURL)
        #expect(try fixture.refusal() == .badSignature(bundle: fixture.directory.path))
    }

    @Test func aSignedManifestThatIsNotJSONIsRefused() throws {
        let fixture = try BundleFixture()
        try fixture.signManifest(Data("{ \"format\": 1, \"version\": ".utf8))
        guard case .malformedManifest(let bundle, _) = try fixture.refusal() else {
            Issue.record("expected malformedManifest")
            return
        }
        #expect(bundle == fixture.directory.path)
    }

    @Test func aSignedManifestWithBadFieldsIsRefusedNamingTheField() throws {
        let fixture = try BundleFixture()
        try fixture.sign()
        let original = try Data(contentsOf: fixture.url(FlowRuleBundle.manifestFileName))
        let text = String(decoding: original, as: UTF8.self)
        let cases: [(String, String)] = [
            (text.replacingOccurrences(of: "\"1.4.2\"", with: "\"1.4-beta\""), "version: \"1.4-beta\" is not a version"),
            (text.replacingOccurrences(of: "2025-06-16T15:06:40Z", with: "next tuesday"), "expires: \"next tuesday\" is not an ISO-8601 date"),
            (text.replacingOccurrences(of: "\"format\" : 1", with: "\"format\" : \"one\""), "format: expected Int"),
        ]
        for (manifest, expected) in cases {
            try fixture.signManifest(Data(manifest.utf8))
            let error = try fixture.refusal()
            guard case .malformedManifest(_, let detail) = error else {
                Issue.record("expected malformedManifest for \(expected), got \(String(describing: error))")
                continue
            }
            #expect(detail.hasPrefix(expected), "\(detail)")
        }
        try fixture.signManifest(original)
        try fixture.resign { $0.files["routes.lua"] = "ABC" }
        #expect(try fixture.refusal() == .malformedManifest(
            bundle: fixture.directory.path, detail: "the hash of routes.lua is not 64 lowercase hex digits of a SHA-256"))
        try fixture.resign { $0.files["routes.lua"] = nil; $0.files["rules//routes.lua"] = String(repeating: "0", count: 64) }
        #expect(try fixture.refusal() == .malformedManifest(
            bundle: fixture.directory.path, detail: "the path \"rules//routes.lua\" is not a normalized relative path"))
    }

    @Test func aManifestOfANewerFormatIsRefused() throws {
        let fixture = try BundleFixture()
        try fixture.sign()
        try fixture.resign { $0.format = 2 }
        #expect(try fixture.refusal() == .unsupportedFormat(bundle: fixture.directory.path, found: 2, supported: 1))
    }

    @Test func aListedFileThatIsMissingIsRefused() throws {
        let fixture = try BundleFixture()
        try fixture.sign()
        try FileManager.default.removeItem(at: fixture.url("rules/auth.lua"))
        let error = try fixture.refusal()
        #expect(error == .missingFile(bundle: fixture.directory.path, file: "rules/auth.lua"))
        #expect(error?.description.contains("rules/auth.lua is listed in the manifest but missing") == true)
    }

    @Test func aFileChangedAfterSigningIsRefused() throws {
        let fixture = try BundleFixture()
        let manifest = try fixture.sign()
        try fixture.write("guard('detail', function() return true end)\n", to: "rules/auth.lua")
        let error = try fixture.refusal()
        #expect(error == .changedFile(
            bundle: fixture.directory.path, file: "rules/auth.lua", expected: manifest.files["rules/auth.lua"]!,
            actual: FlowRuleBundle.sha256Hex(Data("guard('detail', function() return true end)\n".utf8))
        ))
        #expect(error?.description.contains("changed after signing") == true)
    }

    @Test func aFileAddedAfterSigningIsRefusedButHiddenFilesAreIgnored() throws {
        let fixture = try BundleFixture()
        try fixture.sign()
        try fixture.write("junk", to: ".DS_Store")
        try fixture.write("return true\n", to: "rules/.hidden.lua")
        #expect(try fixture.refusal() == nil)
        try fixture.write("allow_everything()\n", to: "rules/extra/override.lua")
        let error = try fixture.refusal()
        #expect(error == .unlistedFile(bundle: fixture.directory.path, file: "rules/extra/override.lua"))
        #expect(error?.description.contains("not listed in the signed manifest") == true)
    }

    @Test func aListedPathWithParentComponentsIsRefused() throws {
        let fixture = try BundleFixture()
        try Data("return 1\n".utf8).write(to: fixture.outside.appendingPathComponent("evil.lua"))
        try fixture.sign()
        try fixture.resign { $0.files["rules/../../outside/evil.lua"] = FlowRuleBundle.sha256Hex(Data("return 1\n".utf8)) }
        #expect(try fixture.refusal() == .pathEscapesBundle(
            bundle: fixture.directory.path, file: "rules/../../outside/evil.lua", detail: "a \"..\" component"))
    }

    @Test func aListedAbsolutePathIsRefused() throws {
        let fixture = try BundleFixture()
        let evil = fixture.outside.appendingPathComponent("evil.lua")
        try Data("return 1\n".utf8).write(to: evil)
        try fixture.sign()
        try fixture.resign { $0.files[evil.path] = FlowRuleBundle.sha256Hex(Data("return 1\n".utf8)) }
        let error = try fixture.refusal()
        #expect(error == .pathEscapesBundle(bundle: fixture.directory.path, file: evil.path, detail: "an absolute path"))
        #expect(error?.description.contains("leads outside the bundle") == true)
    }

    @Test func aListedFileReplacedByALinkLeadingOutsideIsRefusedEvenWithTheSameBytes() throws {
        let fixture = try BundleFixture()
        try fixture.sign()
        let copy = fixture.outside.appendingPathComponent("auth.lua")
        try Data(BundleFixture.initialFiles["rules/auth.lua"]!.utf8).write(to: copy)
        try FileManager.default.removeItem(at: fixture.url("rules/auth.lua"))
        try FileManager.default.createSymbolicLink(at: fixture.url("rules/auth.lua"), withDestinationURL: copy)
        guard case .pathEscapesBundle(_, let file, let detail) = try fixture.refusal() else {
            Issue.record("expected pathEscapesBundle")
            return
        }
        #expect(file == "rules/auth.lua")
        #expect(detail.hasPrefix("it resolves to ") && detail.hasSuffix("/outside/auth.lua"))
    }

    @Test func anUnlistedLinkLeadingOutsideIsRefused() throws {
        let fixture = try BundleFixture()
        try fixture.sign()
        try FileManager.default.createSymbolicLink(at: fixture.url("rules/escape"), withDestinationURL: fixture.outside)
        guard case .pathEscapesBundle(_, let file, let detail) = try fixture.refusal() else {
            Issue.record("expected pathEscapesBundle")
            return
        }
        #expect(file == "rules/escape")
        #expect(detail.hasPrefix("a symbolic link to "))
    }

    @Test func aListedFileReplacedByADirectoryIsRefused() throws {
        let fixture = try BundleFixture()
        try fixture.sign()
        try FileManager.default.removeItem(at: fixture.url("routes.lua"))
        try FileManager.default.createDirectory(at: fixture.url("routes.lua"), withIntermediateDirectories: false)
        #expect(try fixture.refusal() == .unreadable(bundle: fixture.directory.path, file: "routes.lua", detail: "not a regular file"))
    }

    @Test func anExpiredBundleIsRefused() throws {
        let fixture = try BundleFixture()
        try fixture.sign(expiresIn: 60)
        #expect(try fixture.refusal() == nil)
        let later = FlowRuleBundleVerifier(publicKey: fixture.publicKey, appVersion: FlowRuleBundleVersion("2.1")!, now: fixture.now.addingTimeInterval(60))
        #expect(throws: FlowRuleBundleError.expired(
            bundle: fixture.directory.path, version: FlowRuleBundleVersion("1.4.2")!,
            expires: fixture.now.addingTimeInterval(60), now: fixture.now.addingTimeInterval(60)
        )) {
            try later.verify(directory: fixture.directory)
        }
    }

    @Test func aBundleForANewerAppIsRefused() throws {
        let fixture = try BundleFixture()
        try fixture.sign(minimumAppVersion: "2.10")
        #expect(try fixture.refusal(appVersion: "2.10.0") == nil)
        let error = try fixture.refusal(appVersion: "2.9.9")
        #expect(error == .appTooOld(
            bundle: fixture.directory.path, minimumAppVersion: FlowRuleBundleVersion("2.10")!, appVersion: FlowRuleBundleVersion("2.9.9")!))
        #expect(error?.description.contains("update the app") == true)
    }

    @Test func anOlderBundleThanTheLoadedOneIsRefused() throws {
        let fixture = try BundleFixture()
        try fixture.sign(version: "1.4.2")
        #expect(try fixture.refusal(currentlyLoaded: "1.4.1") == nil)
        let error = try fixture.refusal(currentlyLoaded: "1.10")
        #expect(error == .rollback(
            bundle: fixture.directory.path, version: FlowRuleBundleVersion("1.4.2")!, currentlyLoaded: FlowRuleBundleVersion("1.10")!))
        #expect(error?.description.contains("rollback") == true)
    }

    @Test func aDifferentBundleWithTheLoadedVersionIsRefusedWhenReplacing() throws {
        let fixture = try BundleFixture()
        try fixture.sign(version: "1.4.2")
        let verifier = try fixture.verifier()
        let loaded = try verifier.verify(directory: fixture.directory)
        try fixture.write("redirect('editor', 'login')\n", to: "rules/paywall.lua")
        try fixture.sign(version: "1.4.2")
        #expect(throws: FlowRuleBundleError.sameVersionDifferentContent(bundle: fixture.directory.path, version: loaded.version)) {
            try verifier.verify(directory: fixture.directory, replacing: loaded)
        }
        #expect(try fixture.refusal(currentlyLoaded: "1.4.2") == nil)
    }
}
