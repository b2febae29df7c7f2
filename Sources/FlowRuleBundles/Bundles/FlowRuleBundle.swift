import Crypto
import Foundation

/// Signed rule bundles: a directory of rules plus a signed manifest, for rules shipped over the air.
///
/// A bundle is a directory holding the rules (`*.lua`, in subdirectories too, such as
/// `rules/auth.lua` and `routes.lua`) and any other files they ship with, plus two files written
/// next to them by `write`:
///
/// - `bundle.json`, the `FlowRuleBundleManifest`: format, version, minimum app version, expiry,
///   creation date, and the SHA-256 of every file;
/// - `bundle.sig`, the base64 Ed25519 signature of the exact bytes of `bundle.json`.
///
/// Hidden entries (any path component starting with `.`, such as `.DS_Store` or `.git/`) are
/// never part of a bundle: `write` does not list them and `FlowRuleBundleVerifier` ignores them,
/// and since only verified files are handed to the engine they are never loaded.
/// Apps load bundles through `FlowRuleBundleVerifier`.
///
/// The engine loads the rules of a bundle from `rules/` only (`isRulesFile(_:)`): other files
/// a bundle holds (notes, generated LuaLS annotations, flow tests) are verified, never run.
/// Every bundle is held to `FlowRuleBundleLimits`.
package enum FlowRuleBundle {
    /// The manifest's file name, at the top of the bundle directory.
    package static let manifestFileName = "bundle.json"
    /// The signature's file name, at the top of the bundle directory.
    package static let signatureFileName = "bundle.sig"
    /// The rules' folder inside a bundle (a project's `rules/`).
    package static let projectRulesFolder = "rules"
    /// The route manifest's path inside a bundle (a project's `routes.lua`).
    package static let projectManifestPath = "routes.lua"

    /// Which files of a directory `write` signs.
    package enum Contents: Sendable {
        /// Every file (hidden ones excepted).
        case allFiles
        /// The project's route manifest (`routes.lua`) and the `*.lua` files below `rules/`
        /// (the files `flowstack test` and `check` read), what `flowstack bundle` signs: never
        /// flow tests, generated annotations or anything else.
        case rulesAndManifest
    }

    /// Whether the engine loads the bundled file at `path` as rules: a `*.lua` file below `rules/`.
    package static func isRulesFile(_ path: String) -> Bool {
        path.hasPrefix(projectRulesFolder + "/") && path.hasSuffix(".lua")
    }

    /// Refuses a rules file (or `routes.lua`) that is not UTF-8 text, which the engine cannot
    /// load: checked when signing, installing and launching alike.
    static func checkText(_ data: Data, path: String, bundle: String) throws(FlowRuleBundleError) {
        guard isRulesFile(path) || path == projectManifestPath else { return }
        guard String(data: data, encoding: .utf8) != nil else {
            throw .unreadable(bundle: bundle, file: path, detail: "it is not UTF-8 text, and rules files must be")
        }
    }

    /// Lists and hashes the files of `directory` (all of them, or `contents`), then writes and
    /// signs its manifest.
    ///
    /// Dates are stored in whole seconds. Replaces an existing `bundle.json` and `bundle.sig`.
    /// Throws when `expires` is not after `createdAt`, when a file cannot be read, when a
    /// symbolic link leads outside the directory, or when the files break a
    /// `FlowRuleBundleLimits` limit (nothing is written then). Returns the manifest written.
    @discardableResult
    package static func write(
        directory: URL,
        privateKey: FlowRuleBundleSigningKey,
        version: FlowRuleBundleVersion,
        minimumAppVersion: FlowRuleBundleVersion,
        expires: Date,
        createdAt: Date = Date(),
        contents: Contents = .allFiles,
        rollout: Double? = nil
    ) throws(FlowRuleBundleError) -> FlowRuleBundleManifest {
        let bundle = directory.path
        let created = wholeSeconds(createdAt)
        let expiry = wholeSeconds(expires)
        guard expiry > created else { throw .invalidExpiry(expires: expiry, createdAt: created) }
        let root = try FlowRuleBundlePaths.resolvedDirectory(directory)
        var files: [String: String] = [:]
        var contentsByPath: [String: Data] = [:]
        var total = 0
        for path in try FlowRuleBundlePaths.listFiles(root: root, bundle: bundle, contents: contents) {
            try FlowRuleBundlePaths.checkListed(path, bundle: bundle)
            let data = try FlowRuleBundlePaths.read(path, root: root, bundle: bundle).data
            try checkText(data, path: path, bundle: bundle)
            files[path] = sha256Hex(data)
            contentsByPath[path] = data
            total += data.count
            guard total <= FlowRuleBundleLimits.maximumTotalBytes else { break }
        }
        try FlowRuleBundleLimits.check(fileSizes: contentsByPath.mapValues(\.count), bundle: bundle)
        let manifest = FlowRuleBundleManifest(
            version: version, minimumAppVersion: minimumAppVersion,
            expires: expiry, createdAt: created, files: files, rollout: rollout
        )
        let bytes = try manifest.encoded()
        let signature = Data((try privateKey.sign(bytes).base64EncodedString() + "\n").utf8)
        // The archive apps download must fit too: check it before anything is written.
        let archive = FlowRuleBundleArchive(manifest: bytes, signature: signature, files: contentsByPath)
        try FlowRuleBundleLimits.check(archiveBytes: archive.encoded().count, bundle: bundle)
        try save(bytes, as: manifestFileName, root: root, bundle: bundle)
        try save(signature, as: signatureFileName, root: root, bundle: bundle)
        return manifest
    }

    /// The lowercase hex SHA-256 of some bytes, as manifests list it.
    package static func sha256Hex(_ data: Data) -> String {
        let hexDigits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: data) {
            hex.append(hexDigits[Int(byte >> 4)])
            hex.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    private static func save(_ data: Data, as name: String, root: String, bundle: String) throws(FlowRuleBundleError) {
        do {
            try data.write(to: URL(fileURLWithPath: root + "/" + name), options: .atomic)
        } catch {
            throw .writeFailed(bundle: bundle, file: name, detail: error.localizedDescription)
        }
    }

    private static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }
}
