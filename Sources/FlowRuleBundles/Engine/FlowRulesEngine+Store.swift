import FlowScript
import Foundation

extension FlowRulesEngine {
    /// At launch: loads the newest bundle installed in `store` that still verifies; when there
    /// is none, or its rules do not load, the rules the engine was created with (the ones
    /// embedded in the app) stay in force.
    ///
    /// Refused bundles are logged with their reasons and listed in the returned choice. Rules
    /// files are named by their paths in the bundle (`rules/auth.lua`).
    @discardableResult
    public func loadInstalledBundle(from store: FlowRuleBundleStore) -> FlowRuleBundleLaunchChoice {
        let choice = store.launchBundle()
        guard let bundle = choice.bundle else { return choice }
        do {
            try load(verified: bundle, sourcePrefix: "")
            return choice
        } catch {
            configuration.logger.error("installed rule bundle \(bundle.version) did not load; keeping the embedded rules: \(error)")
            return FlowRuleBundleLaunchChoice(bundle: nil, refusals: choice.refusals)
        }
    }
}
