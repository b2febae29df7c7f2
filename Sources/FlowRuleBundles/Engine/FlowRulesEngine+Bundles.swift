import FlowLua
import FlowScript
import FlowStackCore
import Foundation

/// Why a signed rule bundle was not loaded; the rules in force are kept.
public enum FlowBundleLoadError: Error, CustomStringConvertible, Sendable {
    /// The bundle failed verification (signature, files, expiry, app version, rollback).
    case refused(FlowRuleBundleError)
    /// The bundle verified but its rules did not load.
    case script(FlowScriptError)

    /// What happened and what to do.
    public var description: String {
        switch self {
        case .refused(let error): "rule bundle refused: \(error)"
        case .script(let error): "rule bundle verified but did not load: \(error)"
        }
    }
}

extension FlowRulesEngine {
    /// Loads rules from a signed bundle, only if it verifies.
    ///
    /// The verifier checks the Ed25519 signature of `bundle.json` against the app's public key,
    /// that no file is missing, added or changed, that the bundle has not expired, that the app
    /// is new enough, and that its version is not older than the bundle in force (no rollback).
    /// The verified bytes are the bytes loaded. On any refusal or load error the current rules
    /// stay in force and the error says why.
    @discardableResult
    public func loadBundle(at directory: URL, verifier: FlowRuleBundleVerifier) throws(FlowBundleLoadError) -> FlowVerifiedBundle {
        let bundle: FlowVerifiedBundle
        do {
            bundle = try verifier.verify(directory: directory, replacing: loadedBundle as? FlowVerifiedBundle)
        } catch {
            configuration.logger.error("rule bundle refused, keeping generation \(generation): \(error)")
            throw .refused(error)
        }
        return try load(verified: bundle)
    }

    /// Loads the rules of a bundle that already verified (its verified bytes, not the files
    /// again); on a load error the rules in force stay.
    ///
    /// Rules files are named `sourcePrefix/path` in errors; `nil` uses the bundle directory's
    /// name, an empty prefix the bare paths (`rules/auth.lua`).
    @discardableResult
    public func load(verified bundle: FlowVerifiedBundle, sourcePrefix: String? = nil) throws(FlowBundleLoadError) -> FlowVerifiedBundle {
        let sources: [FlowRulesSource]
        do throws(FlowScriptError) {
            sources = try bundle.ruleSources(prefix: sourcePrefix ?? bundle.directory.standardizedFileURL.lastPathComponent)
        } catch {
            throw .script(error)
        }
        switch reload(sources: sources, bundle: bundle) {
        case .loaded:
            return bundle
        case .failed(let error, _):
            throw .script(error)
        }
    }

    /// The version of the signed bundle in force, if the rules came from one; `nil` once a
    /// reload from anything else (the directory, `reload(sources:)`, live rules) replaced them.
    public var bundleVersion: FlowRuleBundleVersion? { (loadedBundle as? FlowVerifiedBundle)?.version }
}
