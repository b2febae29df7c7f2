import Foundation

/// Why a directory cannot be watched.
public struct DirectoryWatcherError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The path that could not be watched.
    public var path: String
    /// What the system said.
    public var reason: String

    /// Creates an error.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `cannot watch <path>: <reason>`.
    public var description: String { "cannot watch \(path): \(reason)" }

    /// The error for the current `errno`.
    static func fromErrno(_ path: String) -> DirectoryWatcherError {
        DirectoryWatcherError(path: path, reason: String(cString: strerror(errno)))
    }
}
