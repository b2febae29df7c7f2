import FlowRuleBundles
import FlowScript
import Foundation

/// The rules of a signed bundle, verified as an app verifies them before loading it
/// (`flowstack diff OLD NEW --public-key FILE`). `package`: only the CLI reads bundles this way.
package struct FlowVerifiedRules: Sendable {
    /// The rules files (`rules/*.lua`), named by their path in the bundle.
    package let rules: [FlowRulesSource]
    /// The bundle's route manifest (`routes.lua`), when it ships one.
    package let manifest: FlowRulesSource?
    /// The bundle's version.
    package let version: FlowRuleBundleVersion

    /// Verifies the bundle at `url` (a bundle directory with `bundle.json` and `bundle.sig`, or
    /// a bundle archive file from `flowstack bundle --output`) and reads its rules.
    ///
    /// - Throws: `FlowRuleBundleError` when the bundle is refused (bad signature, changed or
    ///   unlisted file, expired, too new for `verifier.appVersion`), `FlowScriptError` when a
    ///   rules file is not text.
    package init(bundleAt url: URL, verifier: FlowRuleBundleVerifier) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            let bundle = try verifier.verify(directory: url)
            rules = try bundle.ruleSources(prefix: "")
            manifest = bundle.file(at: FlowRuleBundle.projectManifestPath)?.text.map {
                FlowRulesSource(name: FlowRuleBundle.projectManifestPath, text: $0)
            }
            version = bundle.version
        } else {
            let data = try Data(contentsOf: url)
            let archive = try FlowRuleBundleArchive(data: data)
            let verified = try verifier.verify(archive: archive, name: url.lastPathComponent)
            let files = archive.files.keys.sorted().map { (path: $0, data: archive.files[$0]!) }
            rules = try FlowRulesSource.rules(from: files, prefix: "")
            manifest = archive.files[FlowRuleBundle.projectManifestPath].flatMap { String(data: $0, encoding: .utf8) }.map {
                FlowRulesSource(name: FlowRuleBundle.projectManifestPath, text: $0)
            }
            version = verified.version
        }
    }
}
