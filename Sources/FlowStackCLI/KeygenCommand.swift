import ArgumentParser
import FlowRuleBundles
import FlowScript
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `flowstack keygen`: a new key pair for signing rule bundles.
struct KeygenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Generate an Ed25519 key pair for signing rule bundles.",
        discussion: """
            Prints a new key pair as base64 text, or writes it to files. Keep
            the private key secret (it signs bundles with `flowstack bundle
            --key`); embed the public key in the app, for
            FlowRuleBundleVerifier(publicKey:appVersion:).

            An existing key file is never replaced without --force (the key
            every shipped app trusts would be lost), and one path cannot hold
            both keys; nothing is written when either is refused.

            Examples:
              flowstack keygen
              flowstack keygen --private-key rules.key --public-key rules.pub
            """
    )

    @Option(help: ArgumentHelp("Write the private key to FILE (readable by you only) instead of printing it.", valueName: "FILE"))
    var privateKey: String?

    @Option(help: ArgumentHelp("Write the public key to FILE instead of printing it.", valueName: "FILE"))
    var publicKey: String?

    @Flag(help: "Replace existing key files (the apps that embed the old public key stop accepting new bundles).")
    var force = false

    mutating func run() async throws {
        try checkPaths()
        let pair = FlowRuleBundleKeys.generate()
        let existing: OutputFile.Existing = force ? .replace : .refuse(
            hint: "keygen never replaces a key (every app shipped with its public key depends on it); choose another path, or pass --force to replace it")
        if let privateKey {
            try OutputFile.write(
                Data((pair.privateKey + "\n").utf8), to: privateKey, option: "--private-key", permissions: 0o600,
                existing: existing, enforcePermissions: true)
            Terminal.write("private key: written to \(privateKey) (keep it secret)\n")
        } else {
            Terminal.write("private key: \(pair.privateKey)\n")
        }
        if let publicKey {
            // Checked again now that the private key exists: a file system that ignores case
            // (or another alias) can make two different paths one file.
            try checkPaths(againstWritten: true)
            try OutputFile.write(Data((pair.publicKey + "\n").utf8), to: publicKey, option: "--public-key", existing: existing)
            Terminal.write("public key:  written to \(publicKey)\n")
        } else {
            Terminal.write("public key:  \(pair.publicKey)\n")
        }
        if privateKey == nil {
            Terminal.error("Keep the private key secret: save it to a file for `flowstack bundle --key FILE`.")
        }
    }

    /// Refuses, before anything is written, one path for both keys and (without `--force`) a
    /// key file that exists already.
    private func checkPaths(againstWritten: Bool = false) throws {
        if let privateKey, let publicKey, Self.samePath(privateKey, publicKey) {
            throw CommandFailure(
                "--private-key and --public-key both name \(publicKey): the public key would overwrite the private one; give each key its own file")
        }
        guard !force, !againstWritten else { return }
        for (option, path) in [("--private-key", privateKey), ("--public-key", publicKey)] {
            guard let path else { continue }
            var info = stat()
            if lstat(path, &info) == 0 {
                throw CommandFailure(
                    "\(path) exists already (\(option)); keygen never replaces a key (every app shipped with its public key depends on it): "
                        + "choose another path, or pass --force to replace it")
            }
        }
    }

    /// Whether two paths name one file: the same path once resolved, or the same existing file.
    static func samePath(_ a: String, _ b: String) -> Bool {
        func resolved(_ path: String) -> String {
            let url = URL(fileURLWithPath: path).standardizedFileURL
            let folder = url.deletingLastPathComponent().resolvingSymlinksInPath()
            return folder.appendingPathComponent(url.lastPathComponent).path
        }
        if resolved(a) == resolved(b) { return true }
        var first = stat(), second = stat()
        return stat(a, &first) == 0 && stat(b, &second) == 0 && first.st_dev == second.st_dev && first.st_ino == second.st_ino
    }
}
