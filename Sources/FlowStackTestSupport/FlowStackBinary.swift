// Where the tests find the `flowstack` binary. Not a product: never shipped.
import Foundation

/// The built `flowstack` command-line tool, as the process-based tests run it.
public enum FlowStackBinary {
    /// The package root (this file is Sources/FlowStackTestSupport/FlowStackBinary.swift).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binary: `FLOWSTACK_BINARY`, next to the test bundle (or up to three folders above it),
    /// or in `.build/debug`; `nil` when none is an executable file.
    public static let url: URL? = {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["FLOWSTACK_BINARY"] {
            candidates.append(URL(fileURLWithPath: path))
        }
        var directory = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).standardizedFileURL
            .deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent("flowstack"))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("flowstack"))
        candidates.append(packageRoot.appendingPathComponent(".build/debug/flowstack"))
        return candidates.first { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.isExecutableFile(atPath: url.path)
                && FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }()

    /// The error when the binary is missing: what to build.
    public struct Missing: Error, CustomStringConvertible {
        /// Creates the error.
        public init() {}

        /// What is missing and what to run.
        public var description: String {
            "the flowstack binary was not found next to the test bundle nor in .build/debug; "
                + "build it with `swift build --build-tests` (or set FLOWSTACK_BINARY to its path)"
        }
    }

    /// The binary's URL, or `Missing`.
    public static func require() throws -> URL {
        guard let url else { throw Missing() }
        return url
    }
}
