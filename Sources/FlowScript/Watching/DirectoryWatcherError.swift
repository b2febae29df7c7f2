import Foundation

/// Why a directory cannot be watched.
package struct DirectoryWatcherError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The path that could not be watched.
    package var path: String
    /// What the system said.
    package var reason: String

    /// `cannot watch <path>: <reason>`.
    package var description: String { "cannot watch \(path): \(reason)" }

    /// The error for the current `errno`.
    static func fromErrno(_ path: String) -> DirectoryWatcherError {
        DirectoryWatcherError(path: path, reason: String(cString: strerror(errno)))
    }
}
