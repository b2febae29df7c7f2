import Foundation
@testable import FlowRuleBundles
@testable import FlowScript

/// A temporary bundle directory with rules, a key pair, and helpers to sign and tamper with it.
///
/// The directory (and a sibling directory for "outside" files) is removed when the fixture is
/// released.
final class BundleFixture {
    /// The bundle directory.
    let directory: URL
    /// A directory next to the bundle, for files a bundle must not reach.
    let outside: URL
    /// The signing key.
    let signingKey: FlowRuleBundleSigningKey
    /// The matching public key.
    let publicKey: FlowRuleBundlePublicKey
    /// The time every verification is judged at.
    let now = Date(timeIntervalSince1970: 1_750_000_000)

    /// The rule files every fixture starts with.
    static let initialFiles: [String: String] = [
        "routes.lua": "routes { home = '/', detail = '/detail/:id' }\n",
        "rules/auth.lua": "guard('detail', function(ctx) return facts.signedIn end)\n",
        "rules/paywall.lua": "redirect('editor', 'paywall')\n",
        "README.txt": "Rules for the example app.\n",
    ]

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("flowscript-bundle-\(UUID().uuidString)")
        directory = base.appendingPathComponent("bundle")
        outside = base.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let pair = FlowRuleBundleKeys.generate()
        signingKey = try FlowRuleBundleSigningKey(base64: pair.privateKey)
        publicKey = try FlowRuleBundlePublicKey(base64: pair.publicKey)
        for (path, text) in Self.initialFiles {
            try write(text, to: path)
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }

    /// The URL of a path inside the bundle.
    func url(_ path: String) -> URL {
        directory.appendingPathComponent(path)
    }

    /// Writes text to a path inside the bundle, creating directories.
    func write(_ text: String, to path: String) throws {
        let target = url(path)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: target)
    }

    /// Signs the bundle.
    @discardableResult
    func sign(version: String = "1.4.2", minimumAppVersion: String = "2.0", expiresIn: TimeInterval = 86_400) throws -> FlowRuleBundleManifest {
        try FlowRuleBundle.write(
            directory: directory, privateKey: signingKey,
            version: try FlowRuleBundleVersion(parsing: version),
            minimumAppVersion: try FlowRuleBundleVersion(parsing: minimumAppVersion),
            expires: now.addingTimeInterval(expiresIn), createdAt: now.addingTimeInterval(-3600)
        )
    }

    /// Replaces `bundle.json` with `bytes` and signs them with the fixture's key, so only the
    /// manifest's contents are wrong.
    func signManifest(_ bytes: Data) throws {
        try bytes.write(to: url(FlowRuleBundle.manifestFileName))
        let signature = try signingKey.sign(bytes)
        try Data(signature.base64EncodedString().utf8).write(to: url(FlowRuleBundle.signatureFileName))
    }

    /// Replaces `bundle.json` with a re-encoded, re-signed copy of the manifest after `change`.
    func resign(_ change: (inout FlowRuleBundleManifest) throws -> Void) throws {
        let data = try Data(contentsOf: url(FlowRuleBundle.manifestFileName))
        var manifest = try JSONDecoder().decode(FlowRuleBundleManifest.self, from: data)
        try change(&manifest)
        try signManifest(try manifest.encoded())
    }

    /// A verifier for app version `appVersion` with the fixture's key and clock.
    func verifier(appVersion: String = "2.1", key: FlowRuleBundlePublicKey? = nil) throws -> FlowRuleBundleVerifier {
        FlowRuleBundleVerifier(publicKey: key ?? publicKey, appVersion: try FlowRuleBundleVersion(parsing: appVersion), now: now)
    }

    /// The error verifying the bundle throws, or `nil` when it verifies.
    func refusal(
        appVersion: String = "2.1",
        key: FlowRuleBundlePublicKey? = nil,
        currentlyLoaded: String? = nil
    ) throws -> FlowRuleBundleError? {
        let loaded = try currentlyLoaded.map { try FlowRuleBundleVersion(parsing: $0) }
        let verifier = try verifier(appVersion: appVersion, key: key)
        do {
            _ = try verifier.verify(directory: directory, currentlyLoadedVersion: loaded)
            return nil
        } catch {
            return error
        }
    }
}
