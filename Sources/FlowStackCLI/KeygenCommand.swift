import ArgumentParser
import FlowScript
import Foundation

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

            Examples:
              flowstack keygen
              flowstack keygen --private-key rules.key --public-key rules.pub
            """
    )

    @Option(help: ArgumentHelp("Write the private key to FILE (readable by you only) instead of printing it.", valueName: "FILE"))
    var privateKey: String?

    @Option(help: ArgumentHelp("Write the public key to FILE instead of printing it.", valueName: "FILE"))
    var publicKey: String?

    mutating func run() async throws {
        let pair = FlowRuleBundleKeys.generate()
        if let privateKey {
            try writeFile(pair.privateKey + "\n", to: privateKey)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: privateKey)
            Terminal.write("private key: written to \(privateKey) (keep it secret)\n")
        } else {
            Terminal.write("private key: \(pair.privateKey)\n")
        }
        if let publicKey {
            try writeFile(pair.publicKey + "\n", to: publicKey)
            Terminal.write("public key:  written to \(publicKey)\n")
        } else {
            Terminal.write("public key:  \(pair.publicKey)\n")
        }
        if privateKey == nil {
            Terminal.error("Keep the private key secret: save it to a file for `flowstack bundle --key FILE`.")
        }
    }
}
