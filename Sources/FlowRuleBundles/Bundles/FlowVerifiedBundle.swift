import Foundation

/// One file of a verified bundle: its bytes, read once and checked against the manifest.
public struct FlowVerifiedBundleFile: Hashable, Sendable {
    /// The path relative to the bundle directory, `/`-separated (`rules/auth.lua`).
    public let path: String
    /// Where the file was read from.
    public let url: URL
    /// The bytes that were hashed and verified; load these, never the file again.
    public let data: Data
    /// The lowercase hex SHA-256 of `data`, equal to the manifest's entry.
    package let sha256: String

    /// The contents as UTF-8 text, or `nil` when they are not valid UTF-8.
    public var text: String? {
        String(data: data, encoding: .utf8)
    }

    /// Whether this is a Lua source (`.lua`).
    package var isLuaSource: Bool {
        path.hasSuffix(".lua")
    }
}

/// A bundle that passed every check: signed by the app's key, complete, unchanged, current.
///
/// Holds the bytes that were verified, so the engine loads exactly what was checked without
/// reading the directory again.
public struct FlowVerifiedBundle: Hashable, Sendable {
    /// The bundle directory.
    public let directory: URL
    /// The signed manifest.
    package let manifest: FlowRuleBundleManifest
    /// The lowercase hex SHA-256 of the exact `bundle.json` bytes that were verified.
    package let manifestSHA256: String
    /// Every file the manifest lists, in lexical path order (by UTF-8 bytes).
    public let files: [FlowVerifiedBundleFile]

    /// The bundle's version.
    public var version: FlowRuleBundleVersion { manifest.version }

    /// The Lua sources (`*.lua`), in lexical path order.
    package var luaSources: [FlowVerifiedBundleFile] {
        files.filter(\.isLuaSource)
    }

    /// The file at a relative path (such as `routes.lua`), if the bundle has one.
    public func file(at path: String) -> FlowVerifiedBundleFile? {
        files.first { $0.path == path }
    }
}
