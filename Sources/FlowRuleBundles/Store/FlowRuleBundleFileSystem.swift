import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file operations a `FlowRuleBundleStore` changes the disk with.
///
/// Every change the store makes goes through one of these four calls, so a test can make any
/// one of them fail (a crash, a full disk) and check what is left. Reads go to the disk directly.
package protocol FlowRuleBundleFileSystem: Sendable {
    /// Creates a directory and any missing parents; succeeds when it exists already.
    func createDirectory(at url: URL) throws
    /// Writes a new file (the store writes only into its staging directory).
    func write(_ data: Data, to url: URL) throws
    /// Renames `source` to `destination` in one step (rename(2)): a file at `destination`
    /// is replaced atomically; a directory moves whole.
    func rename(_ source: URL, to destination: URL) throws
    /// Removes a file or a directory with its contents.
    func removeItem(at url: URL) throws
}

/// The real file system.
package struct FlowRuleBundleDiskFileSystem: FlowRuleBundleFileSystem {
    /// Creates the real file system.
    package init() {}

    /// Creates a directory and any missing parents.
    package func createDirectory(at url: URL) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes a new file, refusing to replace an existing one.
    package func write(_ data: Data, to url: URL) throws {
        try data.write(to: url, options: .withoutOverwriting)
    }

    /// Renames with rename(2), replacing a file at `destination` atomically.
    package func rename(_ source: URL, to destination: URL) throws {
        #if canImport(Glibc)
        let status = Glibc.rename(source.path, destination.path)
        #elseif canImport(Musl)
        let status = Musl.rename(source.path, destination.path)
        #else
        let status = Darwin.rename(source.path, destination.path)
        #endif
        if status != 0 {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    /// Removes a file or a directory with its contents.
    package func removeItem(at url: URL) throws {
        try FileManager.default.removeItem(at: url)
    }
}
