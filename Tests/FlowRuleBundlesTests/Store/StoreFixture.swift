import Foundation
@testable import FlowRuleBundles
@testable import FlowScript

/// A store directory, a key pair and signed archives to install into it.
final class StoreFixture {
    let directory: URL
    let signingKey: FlowRuleBundleSigningKey
    let publicKey: FlowRuleBundlePublicKey
    /// The time every verification is judged at.
    let now = Date(timeIntervalSince1970: 1_750_000_000)

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowscript-store-\(UUID().uuidString)")
        let pair = FlowRuleBundleKeys.generate()
        signingKey = try FlowRuleBundleSigningKey(base64: pair.privateKey)
        publicKey = try FlowRuleBundlePublicKey(base64: pair.publicKey)
    }

    /// Another device's store directory with `other`'s keys (the same publisher).
    init(sharing other: StoreFixture) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("flowscript-store-\(UUID().uuidString)")
        signingKey = other.signingKey
        publicKey = other.publicKey
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A verifier for app version 2.1 with the fixture's key and clock.
    func verifier(appVersion: String = "2.1") -> FlowRuleBundleVerifier {
        FlowRuleBundleVerifier(publicKey: publicKey, appVersion: FlowRuleBundleVersion(appVersion)!, now: now)
    }

    /// A store on the fixture's directory (a new instance is a relaunch).
    func store(fileSystem: any FlowRuleBundleFileSystem = FlowRuleBundleDiskFileSystem()) throws -> FlowRuleBundleStore {
        try FlowRuleBundleStore(directory: directory, verifier: verifier(), fileSystem: fileSystem)
    }

    /// The rules of version `version`: a guard whose reason names the version.
    static func files(version: String, extra: Int = 0) -> [String: Data] {
        var files = [
            "routes.lua": Data("return { root = 'home' }\n".utf8),
            "rules/gate.lua": Data(#"flow.guard("editor", function() return false, "bundle \#(version)" end)"#.utf8),
        ]
        for index in 0..<extra { files["rules/extra/r\(index).lua"] = Data("local x\(index) = \(index)\n".utf8) }
        return files
    }

    /// A signed archive.
    func archive(
        version: String, minimumAppVersion: String = "2.0", expiresIn: TimeInterval = 86_400,
        files: [String: Data]? = nil, key: FlowRuleBundleSigningKey? = nil
    ) throws -> FlowRuleBundleArchive {
        try FlowRuleBundleArchive.make(
            files: files ?? Self.files(version: version), version: FlowRuleBundleVersion(version)!,
            minimumAppVersion: FlowRuleBundleVersion(minimumAppVersion)!, expires: now.addingTimeInterval(expiresIn),
            createdAt: now.addingTimeInterval(-60), signingKey: key ?? signingKey)
    }

    /// A signed archive's bytes.
    func data(version: String) throws -> Data {
        try archive(version: version).encoded()
    }

    /// Every path under the store directory, relative.
    func listing() -> [String] {
        let base = directory.path
        let enumerator = FileManager.default.enumerator(atPath: base)
        var paths: [String] = []
        while let path = enumerator?.nextObject() as? String { paths.append(path) }
        return paths.sorted()
    }
}

/// A file system that fails its `failAt`-th change and, like a process that died there, every
/// change after it.
final class FailingFileSystem: FlowRuleBundleFileSystem, @unchecked Sendable {
    private let disk = FlowRuleBundleDiskFileSystem()
    private let lock = NSLock()
    private let failAt: Int?
    private let error: any Error
    private var count = 0
    private var crashed = false

    init(failAt: Int?, error: any Error = POSIXError(.EIO)) {
        self.failAt = failAt
        self.error = error
    }

    /// The changes attempted so far.
    var changes: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    private func step() throws {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        if crashed || count == failAt {
            crashed = true
            throw error
        }
    }

    func createDirectory(at url: URL) throws { try step(); try disk.createDirectory(at: url) }
    func write(_ data: Data, to url: URL) throws { try step(); try disk.write(data, to: url) }
    func rename(_ source: URL, to destination: URL) throws { try step(); try disk.rename(source, to: destination) }
    func removeItem(at url: URL) throws { try step(); try disk.removeItem(at: url) }
}
