import FlowLua
import FlowScript
import Foundation

extension FlowRuleBundleVerifier {
    /// Verifies a bundle archive in memory, before any of its bytes are written anywhere.
    ///
    /// The same checks as `verify(directory:replacing:)`, in the same order: a signature is
    /// required and must verify over the exact manifest bytes; then the manifest's format,
    /// paths, expiry and minimum app version; then no rollback below `highestVersion` (and, at
    /// that very version, only the manifest whose SHA-256 is `highestManifestSHA256`); then
    /// `FlowRuleBundleLimits` (what launch refuses is refused here, before anything is
    /// written); then every file present, unchanged and listed. `name` names the bundle in errors.
    ///
    /// Returns the verified manifest.
    package func verify(
        archive: FlowRuleBundleArchive,
        highestVersion: FlowRuleBundleVersion? = nil,
        highestManifestSHA256: String? = nil,
        name: String = "the downloaded bundle"
    ) throws(FlowRuleBundleError) -> FlowRuleBundleManifest {
        guard let signature = archive.signature else { throw .unsigned(bundle: name) }
        try checkSignature(signature, over: archive.manifest, bundle: name)
        let manifest = try FlowRuleBundleManifest.decode(archive.manifest, bundle: name)
        try checkMetadata(
            manifest, manifestSHA256: FlowRuleBundle.sha256Hex(archive.manifest), loadedVersion: highestVersion,
            loadedManifestSHA256: highestManifestSHA256, bundle: name)
        try FlowRuleBundleLimits.check(fileSizes: archive.files.mapValues(\.count), bundle: name)
        try FlowRuleBundleArchive.checkFiles(archive.files, against: manifest, bundle: name)
        return manifest
    }
}

extension FlowVerifiedBundle {
    /// The rules an engine loads from this bundle: the `*.lua` files below `rules/`
    /// (`FlowRuleBundle.isRulesFile`), named `prefix/path`; never the manifest, flow tests or
    /// generated annotations beside them.
    package func ruleSources(prefix: String) throws(FlowScriptError) -> [FlowRulesSource] {
        try FlowRulesSource.rules(
            from: luaSources.map { ($0.path, $0.data) }, prefix: prefix)
    }
}

extension FlowRulesSource {
    /// The rules among bundle files: the `*.lua` files below `rules/`, in the order given,
    /// named `prefix/path` (or `path` when `prefix` is empty).
    package static func rules(from files: [(path: String, data: Data)], prefix: String) throws(FlowScriptError) -> [FlowRulesSource] {
        var sources: [FlowRulesSource] = []
        for (path, data) in files where FlowRuleBundle.isRulesFile(path) {
            let name = prefix.isEmpty ? path : "\(prefix)/\(path)"
            guard let text = String(data: data, encoding: .utf8) else {
                throw FlowScriptError(kind: .runtime, file: name, message: "the file is not UTF-8 text")
            }
            sources.append(FlowRulesSource(name: name, text: text))
        }
        return sources
    }
}
