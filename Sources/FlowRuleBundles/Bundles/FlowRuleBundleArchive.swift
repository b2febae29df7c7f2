import Foundation

/// A rule bundle as one file: what `flowstack bundle --output` writes, what `flowstack serve`
/// and a bundle server send, and what `FlowRuleBundleStore.install(data:)` takes.
///
/// The archive is JSON holding the exact bytes of `bundle.json`, of `bundle.sig` (absent in an
/// unsigned development bundle) and of every listed file, each as base64:
///
/// ```json
/// { "archive": 1, "manifest": "ewog…", "signature": "b3Vy…",
///   "files": { "routes.lua": "cmV0…", "rules/auth.lua": "Zmxv…" } }
/// ```
///
/// Decoding checks the shape only; nothing in an archive is trusted before a verifier has
/// checked it (`FlowRuleBundleVerifier.verify(archive:highestVersion:)`).
package struct FlowRuleBundleArchive: Hashable, Sendable {
    /// The archive format this library writes and reads.
    package static let currentFormat = 1
    /// The media type servers send archives with.
    package static let mediaType = "application/vnd.flowstack.bundle+json"
    /// The usual file extension of an archive.
    package static let fileExtension = "flowbundle"
    /// The largest archive `init(data:)` accepts by default (`FlowRuleBundleLimits.maximumArchiveBytes`, 16 MiB).
    package static let defaultMaximumBytes = FlowRuleBundleLimits.maximumArchiveBytes

    /// The exact bytes of `bundle.json`.
    package var manifest: Data
    /// The exact bytes of `bundle.sig`, or `nil` for an unsigned development bundle.
    package var signature: Data?
    /// Every file by its relative `/`-separated path.
    package var files: [String: Data]

    /// Creates an archive from its parts.
    package init(manifest: Data, signature: Data?, files: [String: Data]) {
        self.manifest = manifest
        self.signature = signature
        self.files = files
    }

    /// A short tag naming the contents: the SHA-256 of `bundle.json` (which lists every
    /// file's hash), as servers send it in `ETag`.
    package var tag: String {
        String(FlowRuleBundle.sha256Hex(manifest).prefix(32))
    }

    /// Whether the archive carries a signature.
    package var isSigned: Bool { signature != nil }

    /// Reads an archive, refusing one larger than `maximumBytes` or not shaped like an archive.
    package init(data: Data, maximumBytes: Int = FlowRuleBundleArchive.defaultMaximumBytes) throws(FlowRuleBundleError) {
        guard data.count <= maximumBytes else {
            throw .malformedArchive(detail: "it holds \(data.count) bytes, more than the limit of \(maximumBytes)")
        }
        let wire: Wire
        do {
            wire = try JSONDecoder().decode(Wire.self, from: data)
        } catch {
            throw .malformedArchive(detail: "it is not a bundle archive (JSON with archive, manifest and files): \(error)")
        }
        guard wire.archive == Self.currentFormat else {
            throw .malformedArchive(detail: "it has archive format \(wire.archive); this app reads format \(Self.currentFormat)")
        }
        guard let manifest = Data(base64Encoded: wire.manifest) else {
            throw .malformedArchive(detail: "the manifest is not base64")
        }
        var signature: Data?
        if let text = wire.signature {
            guard let bytes = Data(base64Encoded: text) else { throw .malformedArchive(detail: "the signature is not base64") }
            signature = bytes
        }
        var files: [String: Data] = [:]
        for (path, text) in wire.files {
            guard let bytes = Data(base64Encoded: text) else {
                throw .malformedArchive(detail: "the contents of \(path) are not base64")
            }
            files[path] = bytes
        }
        self.init(manifest: manifest, signature: signature, files: files)
    }

    /// The archive's bytes (JSON, keys sorted, so equal archives give equal bytes).
    package func encoded() -> Data {
        let wire = Wire(
            archive: Self.currentFormat, manifest: manifest.base64EncodedString(),
            signature: signature?.base64EncodedString(), files: files.mapValues { $0.base64EncodedString() })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding strings and integers into JSON cannot fail.
        return (try? encoder.encode(wire)) ?? Data()
    }

    /// Packs a signed bundle directory (as `FlowRuleBundle.write` left it): its `bundle.json`,
    /// `bundle.sig` and every file the manifest lists.
    package init(directory: URL) throws(FlowRuleBundleError) {
        let bundle = directory.path
        let root = try FlowRuleBundlePaths.resolvedDirectory(directory)
        guard let manifest = try FlowRuleBundlePaths.readBundleFile(FlowRuleBundle.manifestFileName, root: root, bundle: bundle) else {
            throw .missingManifest(bundle: bundle)
        }
        let signature = try FlowRuleBundlePaths.readBundleFile(FlowRuleBundle.signatureFileName, root: root, bundle: bundle)
        let parsed = try FlowRuleBundleManifest.decode(manifest, bundle: bundle)
        var files: [String: Data] = [:]
        for path in parsed.sortedPaths {
            files[path] = try FlowRuleBundlePaths.read(path, root: root, bundle: bundle).data
        }
        self.init(manifest: manifest, signature: signature, files: files)
    }

    /// Builds an archive from files in memory: writes their manifest and, with a key, signs it.
    ///
    /// `flowstack serve` uses it for the bundles it serves (unsigned unless `--key` is given).
    /// Refuses files an app would refuse (`FlowRuleBundleLimits`), so nothing is published
    /// that an app then refuses.
    package static func make(
        files: [String: Data],
        version: FlowRuleBundleVersion,
        minimumAppVersion: FlowRuleBundleVersion,
        expires: Date,
        createdAt: Date = Date(),
        signingKey: FlowRuleBundleSigningKey?,
        rollout: Double? = nil
    ) throws(FlowRuleBundleError) -> FlowRuleBundleArchive {
        for path in files.keys { try FlowRuleBundlePaths.checkListed(path, bundle: "the archive") }
        try FlowRuleBundleLimits.check(fileSizes: files.mapValues(\.count), bundle: "the archive")
        let created = Date(timeIntervalSince1970: createdAt.timeIntervalSince1970.rounded(.down))
        let expiry = Date(timeIntervalSince1970: expires.timeIntervalSince1970.rounded(.down))
        guard expiry > created else { throw .invalidExpiry(expires: expiry, createdAt: created) }
        let manifest = FlowRuleBundleManifest(
            version: version, minimumAppVersion: minimumAppVersion, expires: expiry, createdAt: created,
            files: files.mapValues(FlowRuleBundle.sha256Hex), rollout: rollout)
        let bytes = try manifest.encoded()
        let signature = try signingKey.map { key throws(FlowRuleBundleError) in
            Data((try key.sign(bytes).base64EncodedString() + "\n").utf8)
        }
        let archive = FlowRuleBundleArchive(manifest: bytes, signature: signature, files: files)
        try FlowRuleBundleLimits.check(archiveBytes: archive.encoded().count, bundle: "the archive")
        return archive
    }

    /// The files after checking them against the manifest, without checking any signature:
    /// for development bundles only (`FlowRulesEngine.connect(to:token:)`).
    ///
    /// Refuses a file missing, added or changed since the manifest was written.
    package func checkedAgainstManifest(name: String = "the served rules") throws(FlowRuleBundleError) -> FlowRuleBundleManifest {
        let parsed = try FlowRuleBundleManifest.decode(manifest, bundle: name)
        try FlowRuleBundleLimits.check(fileSizes: files.mapValues(\.count), bundle: name)
        try Self.checkFiles(files, against: parsed, bundle: name)
        return parsed
    }

    /// Checks that `files` are exactly the manifest's files, with their hashes.
    static func checkFiles(_ files: [String: Data], against manifest: FlowRuleBundleManifest, bundle: String) throws(FlowRuleBundleError) {
        for path in manifest.sortedPaths {
            guard let data = files[path] else { throw .missingFile(bundle: bundle, file: path) }
            let expected = manifest.files[path] ?? ""
            let actual = FlowRuleBundle.sha256Hex(data)
            guard actual == expected else {
                throw .changedFile(bundle: bundle, file: path, expected: expected, actual: actual)
            }
            try FlowRuleBundle.checkText(data, path: path, bundle: bundle)
        }
        for path in files.keys.sorted(by: FlowRuleBundleManifest.lexicallyPrecedes) where manifest.files[path] == nil {
            throw .unlistedFile(bundle: bundle, file: path)
        }
    }

    private struct Wire: Codable {
        var archive: Int
        var manifest: String
        var signature: String?
        var files: [String: String]
    }
}
