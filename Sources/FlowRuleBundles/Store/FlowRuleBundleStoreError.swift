import Foundation

/// Why `FlowRuleBundleStore` did not install or roll back a bundle; the bundle in force stays.
public enum FlowRuleBundleStoreError: Error, CustomStringConvertible, Sendable {
    /// The bundle failed verification; nothing of it was written.
    case refused(FlowRuleBundleError)
    /// The device has no room left; the previous bundle stays whole.
    case diskFull(path: String, detail: String)
    /// A write failed; the previous bundle stays whole.
    case writeFailed(path: String, detail: String)
    /// The bundle was rolled back from on this device and is not installed again.
    case withdrawn(version: FlowRuleBundleVersion)
    /// There is no previous bundle to roll back to.
    case nothingToRollBackTo
    /// The bundle is staged for a share of devices (`rollout`) this one is not in (its bucket,
    /// 0 to 9999, is at or above `rollout × 10000`; `nil`: the store has no rollout unit).
    case outsideRollout(version: FlowRuleBundleVersion, rollout: Double, bucket: Int?)

    /// What happened and what to do.
    public var description: String {
        switch self {
        case .refused(let error):
            return error.description
        case .diskFull(let path, let detail):
            return "cannot install the rule bundle: the disk is full (writing \(path): \(detail)); "
                + "the previous rules stay in force; the install is tried again on the next update"
        case .writeFailed(let path, let detail):
            return "cannot install the rule bundle: writing \(path) failed (\(detail)); the previous rules stay in force"
        case .withdrawn(let version):
            return "rule bundle refused: version \(version) was rolled back on this device; publish a bundle with a newer version"
        case .outsideRollout(let version, let rollout, let bucket?):
            return "rule bundle \(version) skipped: it is rolled out to \(Self.percent(rollout)) of devices, and this device's bucket \(bucket) "
                + "of 10000 is outside it (below \(Int((rollout * 10_000).rounded(.up))) is in); the rules in force stay until a wider rollout is published"
        case .outsideRollout(let version, let rollout, nil):
            return "rule bundle \(version) skipped: it is rolled out to \(Self.percent(rollout)) of devices, and this store has no rollout unit "
                + "to place the device (FlowRuleBundleStore(rolloutUnit:)); the rules in force stay"
        case .nothingToRollBackTo:
            return "cannot roll back: the store keeps no previous bundle (only one was ever installed, or it was already rolled back)"
        }
    }

    /// A fraction as a percentage: `0.1` → `10%`, `0.125` → `12.5%`.
    package static func percent(_ fraction: Double) -> String {
        let value = fraction * 100
        return value == value.rounded() ? "\(Int(value))%" : "\(value)%"
    }

    /// Classifies an error thrown by a file operation.
    static func writing(_ url: URL, _ error: any Error) -> FlowRuleBundleStoreError {
        let detail = (error as? LocalizedError)?.errorDescription ?? "\(error)"
        if isDiskFull(error) { return .diskFull(path: url.path, detail: detail) }
        return .writeFailed(path: url.path, detail: detail)
    }

    private static func isDiskFull(_ error: any Error) -> Bool {
        if let cocoa = error as? CocoaError, cocoa.code == .fileWriteOutOfSpace { return true }
        if let posix = error as? POSIXError, posix.code == .ENOSPC || posix.code == .EDQUOT { return true }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain, ns.code == Int(ENOSPC) { return true }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError {
            return underlying.domain == NSPOSIXErrorDomain && underlying.code == Int(ENOSPC)
        }
        return false
    }
}

extension FlowRuleBundleStoreError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}
