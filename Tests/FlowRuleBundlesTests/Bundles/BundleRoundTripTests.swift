import Foundation
import Testing
@testable import FlowRuleBundles
@testable import FlowScript

@Suite("Rule bundles: signing and loading")
struct BundleRoundTripTests {
    @Test func signedBundleVerifiesWithEveryFileInLexicalOrder() throws {
        let fixture = try BundleFixture()
        try fixture.write("x", to: ".DS_Store")
        try fixture.write("ref: refs/heads/main\n", to: ".git/HEAD")
        let manifest = try fixture.sign()
        #expect(manifest.files.keys.sorted() == ["README.txt", "routes.lua", "rules/auth.lua", "rules/paywall.lua"])

        let verified = try fixture.verifier().verify(directory: fixture.directory)
        #expect(verified.version == FlowRuleBundleVersion("1.4.2"))
        #expect(verified.manifest == manifest)
        #expect(verified.files.map(\.path) == ["README.txt", "routes.lua", "rules/auth.lua", "rules/paywall.lua"])
        #expect(verified.luaSources.map(\.path) == ["routes.lua", "rules/auth.lua", "rules/paywall.lua"])
        for file in verified.files {
            #expect(file.text == BundleFixture.initialFiles[file.path])
            #expect(file.sha256 == manifest.files[file.path])
            #expect(file.url.standardizedFileURL == fixture.url(file.path).standardizedFileURL)
        }
        #expect(verified.file(at: "routes.lua")?.text == BundleFixture.initialFiles["routes.lua"])
        #expect(verified.file(at: ".DS_Store") == nil)
        let manifestBytes = try Data(contentsOf: fixture.url(FlowRuleBundle.manifestFileName))
        #expect(verified.manifestSHA256 == FlowRuleBundle.sha256Hex(manifestBytes))
    }

    @Test func manifestRecordsVersionsDatesAndHashes() throws {
        let fixture = try BundleFixture()
        try fixture.sign(version: "3.0.1", minimumAppVersion: "2.5")
        let bytes = try Data(contentsOf: fixture.url(FlowRuleBundle.manifestFileName))
        let manifest = try FlowRuleBundleManifest.decode(bytes, bundle: "b")
        #expect(manifest.format == FlowRuleBundleManifest.currentFormat)
        #expect(manifest.version.description == "3.0.1")
        #expect(manifest.minimumAppVersion.description == "2.5")
        #expect(manifest.expires == fixture.now.addingTimeInterval(86_400))
        #expect(manifest.createdAt == fixture.now.addingTimeInterval(-3600))
        #expect(manifest.files["routes.lua"] == FlowRuleBundle.sha256Hex(Data(BundleFixture.initialFiles["routes.lua"]!.utf8)))
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\"expires\" : \"2025-06-16T15:06:40Z\""))
        #expect(text.contains("\"version\" : \"3.0.1\""))
    }

    @Test func theLoadedBundleCanBeReloadedAndANewerOneReplacesIt() throws {
        let fixture = try BundleFixture()
        try fixture.sign(version: "1.4.2")
        let verifier = try fixture.verifier()
        let loaded = try verifier.verify(directory: fixture.directory)
        #expect(try fixture.refusal(currentlyLoaded: "1.4.2") == nil)
        #expect(try verifier.verify(directory: fixture.directory, replacing: loaded).manifestSHA256 == loaded.manifestSHA256)

        try fixture.write("redirect('editor', 'login')\n", to: "rules/paywall.lua")
        try fixture.sign(version: "1.5")
        let newer = try verifier.verify(directory: fixture.directory, replacing: loaded)
        #expect(newer.version > loaded.version)
        #expect(newer.file(at: "rules/paywall.lua")?.text == "redirect('editor', 'login')\n")
    }

    @Test func aSymbolicLinkToAFileInsideTheBundleIsPartOfIt() throws {
        let fixture = try BundleFixture()
        try FileManager.default.createSymbolicLink(atPath: fixture.url("rules/shared.lua").path, withDestinationPath: "auth.lua")
        let manifest = try fixture.sign()
        #expect(manifest.files["rules/shared.lua"] == manifest.files["rules/auth.lua"])
        let verified = try fixture.verifier().verify(directory: fixture.directory)
        #expect(verified.file(at: "rules/shared.lua")?.text == BundleFixture.initialFiles["rules/auth.lua"])
    }

    @Test func generatedKeysLoadFromTextAndFiles() throws {
        let fixture = try BundleFixture()
        let pair = FlowRuleBundleKeys.generate()
        #expect(Data(base64Encoded: pair.privateKey)?.count == 32)
        #expect(Data(base64Encoded: pair.publicKey)?.count == 32)
        #expect(pair != FlowRuleBundleKeys.generate())
        let signing = try FlowRuleBundleSigningKey(base64: pair.privateKey)
        #expect(signing.base64 == pair.privateKey)
        #expect(signing.publicKey.base64 == pair.publicKey)

        let keyFile = fixture.outside.appendingPathComponent("public.key")
        try Data("  \(pair.publicKey)\n\n".utf8).write(to: keyFile)
        #expect(try FlowRuleBundlePublicKey(contentsOf: keyFile).base64 == pair.publicKey)
        let privateFile = fixture.outside.appendingPathComponent("private.key")
        try Data("\(pair.privateKey)\n".utf8).write(to: privateFile)
        #expect(try FlowRuleBundleSigningKey(contentsOf: privateFile).publicKey.base64 == pair.publicKey)
    }

    @Test func malformedKeysAreRefusedWithTheReason() throws {
        let fixture = try BundleFixture()
        func keyError(_ body: () throws(FlowRuleBundleError) -> Void) -> FlowRuleBundleError? {
            do { try body(); return nil } catch { return error }
        }
        let notBase64 = keyError { () throws(FlowRuleBundleError) in _ = try FlowRuleBundlePublicKey(base64: "not a key!") }
        #expect(notBase64 == .invalidKey(source: "the public key text", detail: "it is not base64 text"))
        let short = keyError { () throws(FlowRuleBundleError) in _ = try FlowRuleBundleSigningKey(base64: Data(repeating: 7, count: 16).base64EncodedString()) }
        #expect(short == .invalidKey(source: "the signing key text", detail: "it holds 16 bytes; an Ed25519 key holds 32"))
        #expect(keyError { () throws(FlowRuleBundleError) in _ = try FlowRuleBundlePublicKey(base64: "  \n") } == .invalidKey(source: "the public key text", detail: "it is empty"))
        let missing = fixture.outside.appendingPathComponent("absent.key")
        let missingError = keyError { () throws(FlowRuleBundleError) in _ = try FlowRuleBundleSigningKey(contentsOf: missing) }
        guard case .invalidKey(let source, let detail) = missingError else {
            Issue.record("expected invalidKey, got \(String(describing: missingError))")
            return
        }
        #expect(source == missing.path)
        #expect(detail.hasPrefix("the file cannot be read"))
        #expect(missingError?.description.contains("flowstack keygen") == true)
    }

    @Test func writingABundleThatWouldAlreadyBeExpiredIsRefused() throws {
        let fixture = try BundleFixture()
        #expect(throws: FlowRuleBundleError.invalidExpiry(expires: fixture.now, createdAt: fixture.now)) {
            try FlowRuleBundle.write(
                directory: fixture.directory, privateKey: fixture.signingKey,
                version: FlowRuleBundleVersion("1")!, minimumAppVersion: FlowRuleBundleVersion("1")!,
                expires: fixture.now, createdAt: fixture.now
            )
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.url(FlowRuleBundle.manifestFileName).path))
    }

    @Test func writingRefusesALinkLeadingOutside() throws {
        let fixture = try BundleFixture()
        let secret = fixture.outside.appendingPathComponent("secret.lua")
        try Data("return 1\n".utf8).write(to: secret)
        try FileManager.default.createSymbolicLink(at: fixture.url("rules/secret.lua"), withDestinationURL: secret)
        #expect(throws: FlowRuleBundleError.self) { try fixture.sign() }
        #expect(!FileManager.default.fileExists(atPath: fixture.url(FlowRuleBundle.signatureFileName).path))
    }
}
