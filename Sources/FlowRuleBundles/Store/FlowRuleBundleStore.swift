import Foundation
import Logging

/// Where an app keeps the signed rule bundles it downloaded: installs them safely, remembers
/// them across launches, and picks the one to run at launch.
///
/// ```swift
/// let store = try FlowRuleBundleStore(verifier: FlowRuleBundleVerifier(
///     publicKey: try FlowRuleBundlePublicKey(base64: appPublicKey), appVersion: appVersion))
/// engine.loadInstalledBundle(from: store)          // at launch: newest that verifies, else embedded rules
/// try store.install(data: downloadedArchive)       // or let FlowRuleBundleUpdater do it
/// ```
///
/// `install(data:)` verifies the whole archive in memory first (signature, file list, expiry,
/// minimum app version, no rollback below the highest version ever installed here), so no
/// unverified byte is written. It then writes the bundle into a staging directory, renames it
/// into `bundles/`, and commits by replacing `state.json` with one rename: a crash or a failed
/// write at any point leaves the previous bundle in force, whole. The previous bundle is kept
/// for a one-step `rollback()`; older ones are deleted.
///
/// Layout of `directory`: `state.json`, `bundles/<version>-<id>/` (at most two), `staging/`.
/// Thread-safe; calls are serialized.
public final class FlowRuleBundleStore: @unchecked Sendable {
    /// The store's directory.
    public let directory: URL
    /// The checks every bundle must pass, at install and again at launch.
    public let verifier: FlowRuleBundleVerifier
    /// The device's unit id for staged rollouts (a bundle's `rollout`): a stable id of the
    /// install or the user, the one `engine.setExperimentUnit` gets. `nil`: a bundle staged for
    /// fewer than all devices is never installed.
    public let rolloutUnit: String?
    let fileSystem: any FlowRuleBundleFileSystem
    package let logger: Logger
    let lock = NSLock()

    /// The name of the state file.
    static let stateFileName = "state.json"
    /// The directory of installed bundles.
    static let bundlesDirectoryName = "bundles"
    /// The directory installs write into before renaming.
    static let stagingDirectoryName = "staging"

    /// Creates a store in `directory` (default: `FlowStack/RuleBundles` in the app's Application
    /// Support), checking bundles with `verifier`.
    public convenience init(
        directory: URL? = nil,
        verifier: FlowRuleBundleVerifier,
        logger: Logger = Logger(label: "FlowStack.RuleBundleStore"),
        rolloutUnit: String? = nil
    ) throws {
        try self.init(
            directory: directory, verifier: verifier, fileSystem: FlowRuleBundleDiskFileSystem(), logger: logger,
            rolloutUnit: rolloutUnit)
    }

    /// Creates a store that writes through `fileSystem` (tests replace it to make writes fail).
    package init(
        directory: URL?,
        verifier: FlowRuleBundleVerifier,
        fileSystem: any FlowRuleBundleFileSystem,
        logger: Logger = Logger(label: "FlowStack.RuleBundleStore"),
        rolloutUnit: String? = nil
    ) throws {
        self.rolloutUnit = rolloutUnit
        self.directory = try directory ?? Self.defaultDirectory()
        self.verifier = verifier
        self.fileSystem = fileSystem
        self.logger = logger
        removeStaging()
    }

    /// `Application Support/FlowStack/RuleBundles` in the app's container.
    package static func defaultDirectory() throws -> URL {
        let support = try FileManager.default.url(for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
        return support.appendingPathComponent("FlowStack/RuleBundles", isDirectory: true)
    }

    /// The outcome of an install.
    public enum InstallResult: Equatable, Sendable {
        /// The bundle is installed and will be chosen at the next launch.
        case installed(FlowRuleBundleVersion)
        /// The same bundle was installed already; nothing changed.
        case alreadyInstalled(FlowRuleBundleVersion)
    }

    /// Verifies a bundle archive and installs it; the bundle in force is kept as the previous one.
    ///
    /// Throws `refused` (nothing written), `diskFull` or `writeFailed` (the previous bundle
    /// stays in force, whole), `withdrawn`, or `outsideRollout` (a staged bundle this device is
    /// not in: nothing written). The same version published again with a wider `rollout` (and
    /// the same files) installs where the first was skipped, and is already installed where it
    /// was not.
    @discardableResult
    public func install(data: Data) throws(FlowRuleBundleStoreError) -> InstallResult {
        lock.lock()
        defer { lock.unlock() }
        var state = readState()
        let archive: FlowRuleBundleArchive
        let manifest: FlowRuleBundleManifest
        do throws(FlowRuleBundleError) {
            archive = try FlowRuleBundleArchive(data: data)
            manifest = try verifier.verify(
                archive: archive, highestVersion: state.highestVersion, highestManifestSHA256: state.highestManifestSHA256)
        } catch {
            if case .sameVersionDifferentContent = error, let republished = republished(data, state: state) {
                return .alreadyInstalled(republished)
            }
            logger.error("rule bundle refused: \(error.description)")
            throw .refused(error)
        }
        guard manifest.includes(unit: rolloutUnit) else {
            let skipped = FlowRuleBundleStoreError.outsideRollout(
                version: manifest.version, rollout: manifest.rollout ?? 1, bucket: rolloutUnit.map { manifest.rolloutBucket(unit: $0) })
            logger.info("\(skipped.description)")
            throw skipped
        }
        let manifestSHA256 = FlowRuleBundle.sha256Hex(archive.manifest)
        if state.withdrawn.contains(manifestSHA256) {
            throw .withdrawn(version: manifest.version)
        }
        if let current = state.current, manifestSHA256 == state.highestManifestSHA256,
           (try? Data(contentsOf: bundleURL(current).appendingPathComponent(FlowRuleBundle.manifestFileName))) == archive.manifest {
            return .alreadyInstalled(manifest.version)
        }
        let name = FlowRuleBundleStoreState.directoryName(for: manifest.version)
        let staged = directory.appendingPathComponent(Self.stagingDirectoryName).appendingPathComponent(name)
        try perform(at: directory.appendingPathComponent(Self.bundlesDirectoryName)) { try fileSystem.createDirectory(at: $0) }
        try perform(at: staged) { try fileSystem.createDirectory(at: $0) }
        for path in manifest.sortedPaths {
            let target = staged.appendingPathComponent(path)
            if path.contains("/") {
                try perform(at: target.deletingLastPathComponent()) { try fileSystem.createDirectory(at: $0) }
            }
            try perform(at: target) { try fileSystem.write(archive.files[path] ?? Data(), to: $0) }
        }
        try perform(at: staged.appendingPathComponent(FlowRuleBundle.manifestFileName)) { try fileSystem.write(archive.manifest, to: $0) }
        try perform(at: staged.appendingPathComponent(FlowRuleBundle.signatureFileName)) {
            try fileSystem.write(archive.signature ?? Data(), to: $0)
        }
        try perform(at: bundleURL(name)) { try fileSystem.rename(staged, to: $0) }
        let replaced = state
        state.previous = state.current
        state.current = name
        if state.highestVersion.map({ manifest.version > $0 }) ?? true {
            state.highestVersion = manifest.version
            state.highestManifestSHA256 = manifestSHA256
        }
        try writeState(state)
        logger.info("rule bundle \(manifest.version) installed (previous: \(replaced.current ?? "the embedded rules"))")
        removeBundles(except: [state.current, state.previous])
        return .installed(manifest.version)
    }

    /// The version of `data` when it is the bundle installed now published again (a staged
    /// rollout widened): the same version and files as the current bundle, signed (`verify`
    /// checked the signature before it refused the version); `nil` otherwise.
    private func republished(_ data: Data, state: FlowRuleBundleStoreState) -> FlowRuleBundleVersion? {
        guard let current = state.current,
              let installedBytes = try? Data(contentsOf: bundleURL(current).appendingPathComponent(FlowRuleBundle.manifestFileName)),
              let installed = try? FlowRuleBundleManifest.decode(installedBytes, bundle: current),
              let archive = try? FlowRuleBundleArchive(data: data),
              let offered = try? FlowRuleBundleManifest.decode(archive.manifest, bundle: "the downloaded bundle"),
              offered.version == installed.version, offered.files == installed.files
        else { return nil }
        return offered.version
    }

    /// The highest bundle version ever installed here (persisted; nothing older installs again).
    package var highestInstalledVersion: FlowRuleBundleVersion? {
        lock.lock()
        defer { lock.unlock() }
        return readState().highestVersion
    }

    // MARK: - Files

    func bundleURL(_ name: String) -> URL {
        directory.appendingPathComponent(Self.bundlesDirectoryName).appendingPathComponent(name)
    }

    var stateURL: URL { directory.appendingPathComponent(Self.stateFileName) }

    /// Runs one file operation, turning its error into a store error.
    package func perform(at url: URL, _ operation: (URL) throws -> Void) throws(FlowRuleBundleStoreError) {
        do {
            try operation(url)
        } catch {
            let failure = FlowRuleBundleStoreError.writing(url, error)
            logger.error("\(failure.description)")
            removeStaging()
            throw failure
        }
    }

    /// The persisted state; when `state.json` is missing or unreadable, the highest version is
    /// recovered from the installed directories' names so rollback protection holds.
    func readState() -> FlowRuleBundleStoreState {
        if let data = try? Data(contentsOf: stateURL) {
            if let state = try? JSONDecoder().decode(FlowRuleBundleStoreState.self, from: data) { return state }
            logger.error("rule bundle store: \(stateURL.path) is unreadable; recovering the highest version from the installed bundles")
        }
        var state = FlowRuleBundleStoreState()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent(Self.bundlesDirectoryName).path)) ?? []
        state.highestVersion = names.compactMap(FlowRuleBundleStoreState.version(ofDirectory:)).max()
        return state
    }

    /// Commits a state: written next to `state.json`, then renamed over it.
    func writeState(_ state: FlowRuleBundleStoreState) throws(FlowRuleBundleStoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = (try? encoder.encode(state)) ?? Data()
        let temporary = directory.appendingPathComponent(Self.stagingDirectoryName).appendingPathComponent("state-\(UUID().uuidString).json")
        try perform(at: temporary.deletingLastPathComponent()) { try fileSystem.createDirectory(at: $0) }
        try perform(at: temporary) { try fileSystem.write(data, to: $0) }
        try perform(at: stateURL) { try fileSystem.rename(temporary, to: $0) }
    }

    /// Deletes installed bundles other than those named (best effort).
    func removeBundles(except keep: [String?]) {
        let folder = directory.appendingPathComponent(Self.bundlesDirectoryName)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where !keep.contains(name) {
            do {
                try fileSystem.removeItem(at: folder.appendingPathComponent(name))
            } catch {
                logger.warning("rule bundle store: cannot remove the old bundle \(name): \(error)")
            }
        }
    }

    /// Deletes what an interrupted install left in `staging/` (best effort).
    func removeStaging() {
        let staging = directory.appendingPathComponent(Self.stagingDirectoryName)
        guard FileManager.default.fileExists(atPath: staging.path) else { return }
        try? fileSystem.removeItem(at: staging)
    }
}
