import FlowScript
import Foundation

/// The one set of limits every rule bundle is held to: by `flowstack bundle` when it signs,
/// by `flowstack serve` when it publishes, by `FlowRuleBundleStore.install(data:)` before it
/// writes anything, and by the verifier at launch. A bundle that passes one passes them all.
///
/// | limit | value |
/// |---|---|
/// | one file | `maximumFileBytes` (8 MiB) |
/// | every file together | `maximumTotalBytes` (12 MiB) |
/// | files | `maximumFileCount` (4096) |
/// | folders above a file | `maximumFolderDepth` (32, `rules/` counted: the depth `test` and `check` read) |
/// | the archive file | `maximumArchiveBytes` (16 MiB) |
public enum FlowRuleBundleLimits {
    /// The largest file a bundle may hold (8 MiB): rules are small, and a bundle is read whole.
    public static let maximumFileBytes = 8 << 20
    /// The most bytes all of a bundle's files may hold together (12 MiB: as base64 in an
    /// archive they stay under `maximumArchiveBytes`).
    public static let maximumTotalBytes = 12 << 20
    /// The most files a bundle may hold.
    public static let maximumFileCount = 4096
    /// The most folders a bundled file may sit in (`rules/a/b.lua` sits in 2): the limit of the
    /// project walker of `flowstack test` and `check`, one number for both.
    public static let maximumFolderDepth = FlowRulesSource.maximumFolderDepth
    /// The largest archive (`flowstack bundle --output`, `flowstack serve`) an app accepts (16 MiB).
    public static let maximumArchiveBytes = 16 << 20

    /// Refuses a path more than `maximumFolderDepth` folders deep.
    package static func check(path: String, bundle: String) throws(FlowRuleBundleError) {
        let folders = path.utf8.count(where: { $0 == UInt8(ascii: "/") })
        guard folders <= maximumFolderDepth else {
            throw .overLimit(
                bundle: bundle, file: path,
                detail: "it sits \(folders) folders deep, more than the limit of \(maximumFolderDepth) (the depth `flowstack test` and `check` read)")
        }
    }

    /// Refuses a bundle whose files (relative path and size in bytes) break a limit: too many,
    /// one too large, all together too large, or one too deep.
    package static func check(fileSizes: [String: Int], bundle: String) throws(FlowRuleBundleError) {
        guard fileSizes.count <= maximumFileCount else {
            throw .overLimit(bundle: bundle, file: nil, detail: "it holds \(fileSizes.count) files, more than the limit of \(maximumFileCount)")
        }
        var total = 0
        for path in fileSizes.keys.sorted(by: FlowRuleBundleManifest.lexicallyPrecedes) {
            let size = fileSizes[path] ?? 0
            try check(path: path, bundle: bundle)
            guard size <= maximumFileBytes else {
                throw .overLimit(bundle: bundle, file: path, detail: "it holds \(size) bytes, more than the limit of \(describe(maximumFileBytes)) per file")
            }
            total += size
        }
        guard total <= maximumTotalBytes else {
            throw .overLimit(bundle: bundle, file: nil, detail: "its files hold \(total) bytes together, more than the limit of \(describe(maximumTotalBytes))")
        }
    }

    /// Refuses an archive whose encoded bytes exceed `maximumArchiveBytes`.
    package static func check(archiveBytes: Int, bundle: String) throws(FlowRuleBundleError) {
        guard archiveBytes <= maximumArchiveBytes else {
            throw .overLimit(bundle: bundle, file: nil, detail: "its archive holds \(archiveBytes) bytes, more than the limit of \(describe(maximumArchiveBytes))")
        }
    }

    /// Refuses an archive that breaks a limit: its files, then its encoded size. What
    /// `flowstack serve` checks before it publishes.
    package static func check(_ archive: FlowRuleBundleArchive, bundle: String = "the bundle") throws(FlowRuleBundleError) {
        try check(fileSizes: archive.files.mapValues(\.count), bundle: bundle)
        try check(archiveBytes: archive.encoded().count, bundle: bundle)
    }

    /// `8 MiB`.
    static func describe(_ bytes: Int) -> String {
        "\(bytes >> 20) MiB"
    }
}
