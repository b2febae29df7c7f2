import FlowStack
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
            bundle = try verifier.verify(directory: directory, replacing: loadedBundle)
        } catch {
            configuration.logger.error("rule bundle refused, keeping generation \(generation): \(error)")
            throw .refused(error)
        }
        let prefix = directory.standardizedFileURL.lastPathComponent
        var sources: [FlowRulesSource] = []
        for file in bundle.luaSources where file.path != "routes.lua" {
            guard let text = file.text else {
                throw .script(FlowScriptError(kind: .runtime, file: "\(prefix)/\(file.path)", message: "the file is not UTF-8 text"))
            }
            sources.append(FlowRulesSource(name: "\(prefix)/\(file.path)", text: text))
        }
        switch reload(sources: sources) {
        case .loaded:
            loadedBundle = bundle
            return bundle
        case .failed(let error, _):
            throw .script(error)
        }
    }

    /// The version of the signed bundle in force, if the rules came from one.
    public var bundleVersion: FlowRuleBundleVersion? { loadedBundle?.version }
}
