import Foundation

/// Checks a rule bundle before its rules are loaded.
///
/// A bundle is accepted only when, in this order:
/// 1. the directory has `bundle.json` and `bundle.sig`;
/// 2. the signature verifies against the app's public key over the exact bytes of `bundle.json`
///    (nothing in the manifest is trusted before that);
/// 3. the manifest is well formed, of a known format, and every listed path stays inside the
///    bundle (no `..`, no absolute path);
/// 4. it has not expired (`now` is before `expires`);
/// 5. the app is at least `minimumAppVersion`;
/// 6. its version is not older than the one loaded (no rollback, see `verify(directory:replacing:)`
///    for equal versions);
/// 7. every listed file exists inside the bundle (symbolic links must resolve inside it) and
///    has the listed SHA-256;
/// 8. the bundle keeps to `FlowRuleBundleLimits` (file count, sizes, depth);
/// 9. no file is present where the engine loads from (`routes.lua`, `*.lua` below `rules/`)
///    that the manifest does not list; hidden entries (any path component starting with `.`,
///    such as `.DS_Store`) and files elsewhere (flow tests, generated annotations) are ignored
///    and never loaded.
///
/// Each file is read once; the bytes that were hashed are the bytes returned in
/// `FlowVerifiedBundle`, so there is no gap between checking a file and loading it. A refusal
/// throws a `FlowRuleBundleError` saying why; the caller keeps the rules it has.
public struct FlowRuleBundleVerifier: Sendable {
    /// The key bundles must be signed with.
    public var publicKey: FlowRuleBundlePublicKey
    /// The running app's version, compared with a bundle's `minimumAppVersion`.
    public var appVersion: FlowRuleBundleVersion
    /// The time expiry is judged at; `nil` reads the clock at each verification.
    public var now: Date?

    /// Creates a verifier; pass `now` to judge expiry at a fixed time (tests, replays).
    public init(publicKey: FlowRuleBundlePublicKey, appVersion: FlowRuleBundleVersion, now: Date? = nil) {
        self.publicKey = publicKey
        self.appVersion = appVersion
        self.now = now
    }

    /// Verifies the bundle in `directory` and returns its verified contents.
    ///
    /// A bundle older than `currentlyLoadedVersion` is refused as a rollback. A bundle of the
    /// same version is accepted, so the loaded bundle can always be reloaded (after a restart,
    /// or when the directory is touched). Replaying a *different* bundle of the same version
    /// would need the key holder to have signed two bundles with one version; to refuse that
    /// too, use `verify(directory:replacing:)`, which accepts an equal version only when the
    /// manifest bytes are identical.
    package func verify(
        directory: URL,
        currentlyLoadedVersion: FlowRuleBundleVersion? = nil
    ) throws(FlowRuleBundleError) -> FlowVerifiedBundle {
        try verify(directory: directory, loadedVersion: currentlyLoadedVersion, loadedManifestSHA256: nil)
    }

    /// Verifies the bundle in `directory` as a replacement for `current`, the bundle loaded now.
    ///
    /// Like `verify(directory:currentlyLoadedVersion:)`, but a bundle with `current`'s version
    /// is accepted only when its `bundle.json` is byte for byte the one loaded; a different
    /// manifest with the same version is refused with `sameVersionDifferentContent`.
    package func verify(directory: URL, replacing current: FlowVerifiedBundle?) throws(FlowRuleBundleError) -> FlowVerifiedBundle {
        try verify(directory: directory, loadedVersion: current?.version, loadedManifestSHA256: current?.manifestSHA256)
    }

    private func verify(
        directory: URL,
        loadedVersion: FlowRuleBundleVersion?,
        loadedManifestSHA256: String?
    ) throws(FlowRuleBundleError) -> FlowVerifiedBundle {
        let bundle = directory.path
        let root = try FlowRuleBundlePaths.resolvedDirectory(directory)
        guard let manifestBytes = try FlowRuleBundlePaths.readBundleFile(FlowRuleBundle.manifestFileName, root: root, bundle: bundle) else {
            throw .missingManifest(bundle: bundle)
        }
        guard let signatureBytes = try FlowRuleBundlePaths.readBundleFile(FlowRuleBundle.signatureFileName, root: root, bundle: bundle) else {
            throw .missingSignature(bundle: bundle)
        }
        try checkSignature(signatureBytes, over: manifestBytes, bundle: bundle)
        let manifest = try FlowRuleBundleManifest.decode(manifestBytes, bundle: bundle)
        let manifestSHA256 = FlowRuleBundle.sha256Hex(manifestBytes)
        try checkMetadata(manifest, manifestSHA256: manifestSHA256, loadedVersion: loadedVersion,
                          loadedManifestSHA256: loadedManifestSHA256, bundle: bundle)
        var files: [FlowVerifiedBundleFile] = []
        guard manifest.files.count <= FlowRuleBundleLimits.maximumFileCount else {
            throw .overLimit(
                bundle: bundle, file: nil,
                detail: "it lists \(manifest.files.count) files, more than the limit of \(FlowRuleBundleLimits.maximumFileCount)")
        }
        var total = 0
        for path in manifest.sortedPaths {
            let (url, data) = try FlowRuleBundlePaths.read(path, root: root, bundle: bundle)
            total += data.count
            guard total <= FlowRuleBundleLimits.maximumTotalBytes else {
                throw .overLimit(
                    bundle: bundle, file: nil,
                    detail: "its files hold more than \(FlowRuleBundleLimits.describe(FlowRuleBundleLimits.maximumTotalBytes)) together, the limit")
            }
            let expected = manifest.files[path] ?? ""
            let actual = FlowRuleBundle.sha256Hex(data)
            guard actual == expected else {
                throw .changedFile(bundle: bundle, file: path, expected: expected, actual: actual)
            }
            try FlowRuleBundle.checkText(data, path: path, bundle: bundle)
            files.append(FlowVerifiedBundleFile(path: path, url: url, data: data, sha256: actual))
        }
        for path in try FlowRuleBundlePaths.listFiles(root: root, bundle: bundle, contents: .rulesAndManifest)
        where manifest.files[path] == nil {
            throw .unlistedFile(bundle: bundle, file: path)
        }
        return FlowVerifiedBundle(directory: directory, manifest: manifest, manifestSHA256: manifestSHA256, files: files)
    }

    func checkSignature(_ signatureBytes: Data, over manifestBytes: Data, bundle: String) throws(FlowRuleBundleError) {
        guard let text = String(data: signatureBytes, encoding: .utf8),
              let signature = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw .malformedSignature(bundle: bundle, detail: "it is not base64 text")
        }
        guard signature.count == 64 else {
            throw .malformedSignature(bundle: bundle, detail: "it holds \(signature.count) bytes; an Ed25519 signature holds 64")
        }
        guard publicKey.isValid(signature: signature, for: manifestBytes) else {
            throw .badSignature(bundle: bundle)
        }
    }

    func checkMetadata(
        _ manifest: FlowRuleBundleManifest,
        manifestSHA256: String,
        loadedVersion: FlowRuleBundleVersion?,
        loadedManifestSHA256: String?,
        bundle: String
    ) throws(FlowRuleBundleError) {
        guard manifest.format == FlowRuleBundleManifest.currentFormat else {
            throw .unsupportedFormat(bundle: bundle, found: manifest.format, supported: FlowRuleBundleManifest.currentFormat)
        }
        let time = now ?? Date()
        guard time < manifest.expires else {
            throw .expired(bundle: bundle, version: manifest.version, expires: manifest.expires, now: time)
        }
        guard appVersion >= manifest.minimumAppVersion else {
            throw .appTooOld(bundle: bundle, minimumAppVersion: manifest.minimumAppVersion, appVersion: appVersion)
        }
        guard let loadedVersion else { return }
        if manifest.version < loadedVersion {
            throw .rollback(bundle: bundle, version: manifest.version, currentlyLoaded: loadedVersion)
        }
        if manifest.version == loadedVersion, let loadedManifestSHA256, loadedManifestSHA256 != manifestSHA256 {
            throw .sameVersionDifferentContent(bundle: bundle, version: manifest.version)
        }
    }
}
