import Dispatch
import Foundation

/// Watches a directory tree and calls back on the main actor, debounced, when files change.
///
/// Used for hot reload: several quick writes (an editor saving, a `git checkout`) give one
/// callback, delivered `debounce` after the last change. Editors that save by writing a
/// temporary file and renaming it over the original are seen too. On Linux it uses inotify on
/// the directory and every subdirectory (including ones created later); on Apple platforms,
/// dispatch file-system sources on the directories and their files.
@MainActor
package final class DirectoryWatcher {
    /// The watched directory.
    package let directory: URL
    /// How long the tree must stay quiet before the callback runs.
    package let debounce: Duration
    private let core: DirectoryWatcherCore

    /// Whether the watcher is running.
    package private(set) var isRunning = false

    /// Creates a stopped watcher.
    ///
    /// - Parameters:
    ///   - directory: the directory to watch, with its subdirectories.
    ///   - debounce: the quiet time before a callback (default 100 ms).
    ///   - includes: which changed paths (relative to `directory`) count; all by default.
    ///   - onChange: called on the main actor after a burst of changes.
    package init(
        directory: URL,
        debounce: Duration = .milliseconds(100),
        includes: (@Sendable (String) -> Bool)? = nil,
        onChange: @escaping @MainActor @Sendable () -> Void
    ) {
        self.directory = directory.standardizedFileURL
        self.debounce = debounce
        self.core = DirectoryWatcherCore(
            root: directory.standardizedFileURL.path, debounce: debounce, includes: includes, onChange: onChange)
    }

    /// Starts watching (does nothing when already running).
    ///
    /// - Throws: `DirectoryWatcherError` when the directory cannot be watched.
    package func start() throws(DirectoryWatcherError) {
        guard !isRunning else { return }
        try core.start()
        isRunning = true
    }

    /// Stops watching: no callback runs afterwards, and every file descriptor is closed
    /// before this returns.
    package func stop() {
        guard isRunning else { return }
        isRunning = false
        core.stop()
    }

    deinit {
        core.stop()
    }
}
