import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A freshly generated Ed25519 key pair as base64 text (the keys' raw 32-byte representations).
package struct FlowRuleBundleKeyPair: Hashable, Sendable {
    /// The signing key: keep it secret, give it to `flowstack bundle --key`.
    package let privateKey: String
    /// The public key: embed it in the app, give it to `FlowRuleBundleVerifier`.
    package let publicKey: String
}

/// Key generation for `flowstack keygen`.
package enum FlowRuleBundleKeys {
    /// Generates a new Ed25519 key pair.
    package static func generate() -> FlowRuleBundleKeyPair {
        let key = Curve25519.Signing.PrivateKey()
        return FlowRuleBundleKeyPair(
            privateKey: key.rawRepresentation.base64EncodedString(),
            publicKey: key.publicKey.rawRepresentation.base64EncodedString()
        )
    }

    /// Where a key's base64 text comes from.
    enum Source {
        /// The text itself, and how errors name it (`"the public key text"`).
        case text(String, name: String)
        /// A file holding the text (read by `read(_:)`).
        case file(URL)
    }

    /// The Ed25519 key (`kind`: `"private key"` or `"public key"`) that `make` builds from the
    /// raw bytes of the base64 text at `source`; errors name the source.
    static func load<Key>(
        _ kind: String, from source: Source, as make: (Data) throws -> Key
    ) throws(FlowRuleBundleError) -> Key {
        let text: String, name: String
        switch source {
        case .text(let given, let label): (text, name) = (given, label)
        case .file(let url): (text, name) = (try read(url), url.path)
        }
        let raw = try decode(text, source: name)
        do {
            return try make(raw)
        } catch {
            throw .invalidKey(source: name, detail: "it is not an Ed25519 \(kind)")
        }
    }

    /// Decodes base64 key text (surrounding whitespace ignored) into its raw bytes.
    package static func decode(_ text: String, source: String) throws(FlowRuleBundleError) -> Data {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            throw .invalidKey(source: source, detail: "it is empty")
        }
        guard let data = Data(base64Encoded: trimmed) else {
            throw .invalidKey(source: source, detail: "it is not base64 text")
        }
        guard data.count == 32 else {
            throw .invalidKey(source: source, detail: "it holds \(data.count) bytes; an Ed25519 key holds 32")
        }
        return data
    }

    /// The most bytes a key file may hold (a key is 44 characters of base64).
    static let maximumKeyFileBytes = 4096

    /// Reads key text from a file: a regular file of at most `maximumKeyFileBytes` (a FIFO or
    /// a device such as `/dev/zero` is refused at once, never read).
    package static func read(_ url: URL) throws(FlowRuleBundleError) -> String {
        let descriptor = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw .invalidKey(source: url.path, detail: "the file cannot be read (\(String(cString: strerror(errno))))")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw .invalidKey(source: url.path, detail: "it is not a regular file")
        }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumKeyFileBytes + 1) ?? Data()
        } catch {
            throw .invalidKey(source: url.path, detail: "the file cannot be read (\(error.localizedDescription))")
        }
        guard data.count <= maximumKeyFileBytes, let text = String(data: data, encoding: .utf8) else {
            throw .invalidKey(source: url.path, detail: "the file is not a short text file")
        }
        return text
    }
}

/// The private key that signs bundles (Ed25519).
package struct FlowRuleBundleSigningKey: Sendable {
    package let key: Curve25519.Signing.PrivateKey

    /// Loads a signing key from base64 text, such as `FlowRuleBundleKeyPair.privateKey`.
    package init(base64 text: String) throws(FlowRuleBundleError) {
        key = try FlowRuleBundleKeys.load("private key", from: .text(text, name: "the signing key text"), as: { try Curve25519.Signing.PrivateKey(rawRepresentation: $0) })
    }

    /// Loads a signing key from a file holding its base64 text.
    package init(contentsOf url: URL) throws(FlowRuleBundleError) {
        key = try FlowRuleBundleKeys.load("private key", from: .file(url), as: { try Curve25519.Signing.PrivateKey(rawRepresentation: $0) })
    }

    /// The key as base64 text.
    package var base64: String { key.rawRepresentation.base64EncodedString() }

    /// The matching public key.
    package var publicKey: FlowRuleBundlePublicKey { FlowRuleBundlePublicKey(key: key.publicKey) }

    /// Signs bytes.
    func sign(_ data: Data) throws(FlowRuleBundleError) -> Data {
        do {
            return try key.signature(for: data)
        } catch {
            throw .signingFailed(detail: "\(error)")
        }
    }
}

/// The public key an app verifies bundles with (Ed25519).
public struct FlowRuleBundlePublicKey: Sendable {
    package let key: Curve25519.Signing.PublicKey

    init(key: Curve25519.Signing.PublicKey) {
        self.key = key
    }

    /// Loads a public key from base64 text, such as `FlowRuleBundleKeyPair.publicKey`.
    public init(base64 text: String) throws(FlowRuleBundleError) {
        key = try FlowRuleBundleKeys.load("public key", from: .text(text, name: "the public key text"), as: { try Curve25519.Signing.PublicKey(rawRepresentation: $0) })
    }

    /// Loads a public key from a file holding its base64 text.
    public init(contentsOf url: URL) throws(FlowRuleBundleError) {
        key = try FlowRuleBundleKeys.load("public key", from: .file(url), as: { try Curve25519.Signing.PublicKey(rawRepresentation: $0) })
    }

    /// The key as base64 text.
    public var base64: String { key.rawRepresentation.base64EncodedString() }

    /// Whether `signature` signs exactly `data` with the matching private key.
    func isValid(signature: Data, for data: Data) -> Bool {
        key.isValidSignature(signature, for: data)
    }
}
