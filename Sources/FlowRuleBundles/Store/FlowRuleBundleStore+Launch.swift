import Foundation

/// What a store chose to run at launch.
public struct FlowRuleBundleLaunchChoice: Sendable {
    /// The newest installed bundle that verified, or `nil`: run the rules embedded in the app.
    public let bundle: FlowVerifiedBundle?
    /// Installed bundles refused at this launch, with why (tampered, corrupt, expired, too new for the app).
    public let refusals: [FlowRuleBundleError]
}

extension FlowRuleBundleStore {
    /// The bundle to run at launch: the newest installed bundle (the current one, else the
    /// previous one) that still verifies, or none, meaning the rules embedded in the app.
    ///
    /// Every refused bundle is logged (error level) with its reason and never loaded.
    package func launchBundle() -> FlowRuleBundleLaunchChoice {
        lock.lock()
        defer { lock.unlock() }
        let state = readState()
        var verified: [FlowVerifiedBundle] = []
        var refusals: [FlowRuleBundleError] = []
        for name in [state.current, state.previous].compactMap({ $0 }) {
            do {
                verified.append(try verifier.verify(directory: bundleURL(name)))
            } catch {
                logger.error("installed rule bundle refused at launch: \(error.description)")
                refusals.append(error)
            }
        }
        let newest = verified.max { $0.version < $1.version }
        if newest == nil {
            logger.info("no installed rule bundle verifies; running the rules embedded in the app")
        }
        return FlowRuleBundleLaunchChoice(bundle: newest, refusals: refusals)
    }

    /// The versions installed: the bundle in force and the one kept for rollback.
    package var installedVersions: (current: FlowRuleBundleVersion?, previous: FlowRuleBundleVersion?) {
        lock.lock()
        defer { lock.unlock() }
        let state = readState()
        return (state.current.flatMap(FlowRuleBundleStoreState.version(ofDirectory:)),
                state.previous.flatMap(FlowRuleBundleStoreState.version(ofDirectory:)))
    }

    /// Goes back one step: the previous bundle becomes current, and the current one is deleted
    /// and never installed again (the highest version stays, so older bundles stay refused).
    ///
    /// Returns the version now current. Throws `nothingToRollBackTo` when there is no previous bundle.
    @discardableResult
    public func rollback() throws(FlowRuleBundleStoreError) -> FlowRuleBundleVersion {
        lock.lock()
        defer { lock.unlock() }
        var state = readState()
        guard let previous = state.previous, let version = FlowRuleBundleStoreState.version(ofDirectory: previous) else {
            throw .nothingToRollBackTo
        }
        if let current = state.current,
           let manifest = try? Data(contentsOf: bundleURL(current).appendingPathComponent(FlowRuleBundle.manifestFileName)) {
            state.withdrawn.append(FlowRuleBundle.sha256Hex(manifest))
            if state.withdrawn.count > 32 { state.withdrawn.removeFirst(state.withdrawn.count - 32) }
        }
        state.current = previous
        state.previous = nil
        try writeState(state)
        logger.notice("rule bundles rolled back to \(version)")
        removeBundles(except: [state.current])
        return version
    }
}
