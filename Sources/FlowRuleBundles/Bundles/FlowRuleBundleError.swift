import Foundation

/// Why a rule bundle could not be written, or why it was refused.
///
/// Every refusal means the bundle was not loaded and the rules already in force stay in force.
/// `bundle` is the bundle directory's path and `file` a path relative to it, `/`-separated.
public enum FlowRuleBundleError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The bundle path does not exist or is not a directory.
    case notADirectory(bundle: String)
    /// The directory has no `bundle.json`: it was never signed.
    case missingManifest(bundle: String)
    /// The directory has a `bundle.json` but no `bundle.sig`.
    case missingSignature(bundle: String)
    /// `bundle.sig` is not a base64 Ed25519 signature.
    case malformedSignature(bundle: String, detail: String)
    /// The signature does not verify: another key signed it, or `bundle.json` was edited.
    case badSignature(bundle: String)
    /// `bundle.json` is signed but cannot be read as a manifest.
    case malformedManifest(bundle: String, detail: String)
    /// The manifest's format is newer than this app understands.
    case unsupportedFormat(bundle: String, found: Int, supported: Int)
    /// The bundle's expiry date has passed.
    case expired(bundle: String, version: FlowRuleBundleVersion, expires: Date, now: Date)
    /// The bundle needs a newer app.
    case appTooOld(bundle: String, minimumAppVersion: FlowRuleBundleVersion, appVersion: FlowRuleBundleVersion)
    /// The bundle is older than the rules already loaded.
    case rollback(bundle: String, version: FlowRuleBundleVersion, currentlyLoaded: FlowRuleBundleVersion)
    /// The bundle has the loaded version's number but different contents.
    case sameVersionDifferentContent(bundle: String, version: FlowRuleBundleVersion)
    /// A file the manifest lists is not in the directory.
    case missingFile(bundle: String, file: String)
    /// A file's contents differ from the SHA-256 the manifest lists.
    case changedFile(bundle: String, file: String, expected: String, actual: String)
    /// A file in the directory is not listed in the manifest.
    case unlistedFile(bundle: String, file: String)
    /// A path (listed, or a symbolic link on disk) leads outside the bundle directory.
    case pathEscapesBundle(bundle: String, file: String, detail: String)
    /// A file or directory of the bundle could not be read.
    case unreadable(bundle: String, file: String, detail: String)
    /// A version string is not dot-separated non-negative integers.
    case invalidVersion(field: String, text: String)
    /// A signing or public key could not be loaded.
    case invalidKey(source: String, detail: String)
    /// `write` was asked for a bundle that would expire before (or when) it is created.
    case invalidExpiry(expires: Date, createdAt: Date)
    /// Writing `bundle.json` or `bundle.sig` failed.
    case writeFailed(bundle: String, file: String, detail: String)
    /// The signing library refused to sign.
    case signingFailed(detail: String)
    /// Bytes offered as a bundle archive are not one (or are larger than allowed).
    case malformedArchive(detail: String)
    /// A bundle archive has no signature, and only signed bundles are accepted here.
    case unsigned(bundle: String)
    /// The bundle breaks one of `FlowRuleBundleLimits` (a file too large or too deep, too many
    /// files, an archive too large); `file` is the file at fault, if one is.
    case overLimit(bundle: String, file: String?, detail: String)

    /// What happened, where, and what to do.
    public var description: String {
        switch self {
        case .notADirectory(let bundle):
            return "rule bundle refused: \(bundle) is not a directory; pass the directory that holds bundle.json and the rules"
        case .missingManifest(let bundle):
            return "rule bundle refused: \(bundle) has no \(FlowRuleBundle.manifestFileName), so it is not a signed bundle; "
                + "sign it with `flowstack bundle \(bundle) --key KEY`"
        case .missingSignature(let bundle):
            return "rule bundle refused: \(bundle) has \(FlowRuleBundle.manifestFileName) but no \(FlowRuleBundle.signatureFileName); "
                + "sign it again with `flowstack bundle \(bundle) --key KEY` and ship both files"
        case .malformedSignature(let bundle, let detail):
            return "rule bundle refused: \(bundle)/\(FlowRuleBundle.signatureFileName) is not a signature (\(detail)); "
                + "sign the bundle again with `flowstack bundle`"
        case .badSignature(let bundle):
            return "rule bundle refused: the signature of \(bundle)/\(FlowRuleBundle.manifestFileName) does not verify with the app's public key; "
                + "either the manifest was edited after signing or another key signed it; sign it again with the key matching the app's public key"
        case .malformedManifest(let bundle, let detail):
            return "rule bundle refused: \(bundle)/\(FlowRuleBundle.manifestFileName) is not a valid manifest: \(detail); "
                + "write it with `flowstack bundle` instead of by hand"
        case .unsupportedFormat(let bundle, let found, let supported):
            return "rule bundle refused: \(bundle)/\(FlowRuleBundle.manifestFileName) has format \(found), this app reads format \(supported); "
                + "sign the bundle with the flowstack version that matches the app"
        case .expired(let bundle, let version, let expires, let now):
            return "rule bundle refused: \(bundle) (version \(version)) expired on \(Self.format(expires)) (now \(Self.format(now))); "
                + "publish a new bundle with a later expiry date"
        case .appTooOld(let bundle, let minimum, let app):
            return "rule bundle refused: \(bundle) needs app version \(minimum) or later, this app is \(app); "
                + "update the app, or publish a bundle with a lower minimum app version"
        case .rollback(let bundle, let version, let loaded):
            return "rule bundle refused: \(bundle) is version \(version), older than the loaded version \(loaded) (rollback); "
                + "publish the bundle with a version above \(loaded)"
        case .sameVersionDifferentContent(let bundle, let version):
            return "rule bundle refused: \(bundle) is version \(version), the version already loaded, but its manifest differs; "
                + "give every published bundle a new version"
        case .missingFile(let bundle, let file):
            return "rule bundle refused: \(bundle)/\(file) is listed in the manifest but missing; "
                + "ship the whole signed directory, or sign it again"
        case .changedFile(let bundle, let file, let expected, let actual):
            return "rule bundle refused: \(bundle)/\(file) was changed after signing (SHA-256 \(actual), signed \(expected)); "
                + "restore the signed file, or sign the bundle again"
        case .unlistedFile(let bundle, let file):
            return "rule bundle refused: \(bundle)/\(file) is not listed in the signed manifest (added after signing); "
                + "remove it, or sign the bundle again to include it"
        case .pathEscapesBundle(let bundle, let file, let detail):
            return "rule bundle refused: \(file) in \(bundle) leads outside the bundle (\(detail)); "
                + "bundles may only hold files inside their directory"
        case .unreadable(let bundle, let file, let detail):
            let path = file.isEmpty ? bundle : "\(bundle)/\(file)"
            return "rule bundle refused: \(path) cannot be read (\(detail)); check the file's type and permissions"
        case .invalidVersion(let field, let text):
            return "\(field) \"\(text)\" is not a version: use dot-separated non-negative integers such as 1.4.2"
        case .invalidKey(let source, let detail):
            return "cannot load the key from \(source): \(detail); "
                + "keys are the base64 text written by `flowstack keygen`"
        case .invalidExpiry(let expires, let createdAt):
            return "cannot write the bundle: it would expire on \(Self.format(expires)), not after its creation on \(Self.format(createdAt)); "
                + "choose a later expiry date"
        case .writeFailed(let bundle, let file, let detail):
            return "cannot write \(bundle)/\(file): \(detail); check that the directory is writable"
        case .signingFailed(let detail):
            return "cannot sign the bundle: \(detail)"
        case .malformedArchive(let detail):
            return "rule bundle refused: the download is not a bundle archive: \(detail); "
                + "publish the file `flowstack bundle DIR --key KEY --output FILE` writes"
        case .unsigned(let bundle):
            return "rule bundle refused: \(bundle) is not signed, and apps install signed bundles only; "
                + "sign it with `flowstack bundle DIR --key KEY --output FILE`"
        case .overLimit(let bundle, let file, let detail):
            let path = file.map { "\(bundle)/\($0)" } ?? bundle
            return "rule bundle refused: \(path) is over a bundle limit: \(detail); "
                + "bundles hold at most \(FlowRuleBundleLimits.maximumFileCount) files of at most "
                + "\(FlowRuleBundleLimits.describe(FlowRuleBundleLimits.maximumFileBytes)) each "
                + "(\(FlowRuleBundleLimits.describe(FlowRuleBundleLimits.maximumTotalBytes)) together), "
                + "at most \(FlowRuleBundleLimits.maximumFolderDepth) folders deep; split or shrink the rules"
        }
    }

    /// A date as ISO-8601 text, as manifests write it.
    package static func format(_ date: Date) -> String {
        FlowRuleBundleManifest.formatDate(date)
    }
}

extension FlowRuleBundleError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}
