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
public final class DirectoryWatcher {
    /// The watched directory.
    public let directory: URL
    /// How long the tree must stay quiet before the callback runs.
    public let debounce: Duration
    private let core: DirectoryWatcherCore

    /// Whether the watcher is running.
    public private(set) var isRunning = false

    /// Creates a stopped watcher.
    ///
    /// - Parameters:
    ///   - directory: the directory to watch, with its subdirectories.
    ///   - debounce: the quiet time before a callback (default 100 ms).
    ///   - includes: which changed paths (relative to `directory`) count; all by default.
    ///   - onChange: called on the main actor after a burst of changes.
    public init(
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
    public func start() throws(DirectoryWatcherError) {
        guard !isRunning else { return }
        try core.start()
        isRunning = true
    }

    /// Stops watching: no callback runs afterwards, and every file descriptor is closed
    /// before this returns.
    public func stop() {
        guard isRunning else { return }
        isRunning = false
        core.stop()
    }

    deinit {
        core.stop()
    }
}

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

/// The thread-safe part of a watcher: all its state lives on a private serial queue.
final class DirectoryWatcherCore: @unchecked Sendable {
    /// The watched directory's path.
    let root: String
    let queue = DispatchQueue(label: "FlowScript.DirectoryWatcher")
    private let debounce: Duration
    private let includes: (@Sendable (String) -> Bool)?
    private let onChange: @MainActor @Sendable () -> Void
    /// The platform's event sources (touched on `queue` only).
    private var backend: DirectoryWatcherBackend?
    /// The pending debounced callback (touched on `queue` only).
    private var pending: DispatchWorkItem?
    /// Bumped by every stop, so a callback scheduled before it is dropped.
    private var generation = 0

    init(root: String, debounce: Duration, includes: (@Sendable (String) -> Bool)?, onChange: @escaping @MainActor @Sendable () -> Void) {
        self.root = root
        self.debounce = debounce
        self.includes = includes
        self.onChange = onChange
    }

    /// Opens the platform's sources.
    func start() throws(DirectoryWatcherError) {
        let result: Result<Void, DirectoryWatcherError> = queue.sync {
            do throws(DirectoryWatcherError) {
                backend = try DirectoryWatcherBackend(core: self)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }

    /// Cancels the pending callback and closes the sources; returns once their descriptors are closed.
    func stop() {
        let closing: DirectoryWatcherBackend? = queue.sync {
            generation += 1
            pending?.cancel()
            pending = nil
            let current = backend
            backend = nil
            return current
        }
        closing?.close()
    }

    /// Records changes of `paths` (relative to the root; empty when unknown) and restarts the
    /// debounce timer. On `queue`; ignored once stopped.
    func changed(_ paths: [String]) {
        guard backend != nil else { return }
        if let includes, !paths.isEmpty, !paths.contains(where: includes) { return }
        pending?.cancel()
        let generation = generation
        let onChange = onChange
        let item = DispatchWorkItem { [weak self] in
            guard let self, self.generation == generation else { return }
            self.pending = nil
            Task { @MainActor [weak self] in
                guard let self, self.isCurrent(generation) else { return }
                onChange()
            }
        }
        pending = item
        let components = debounce.components
        let nanoseconds = Int(components.seconds) * 1_000_000_000 + Int(components.attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds), execute: item)
    }

    /// Whether no stop happened since `generation` was read.
    private func isCurrent(_ generation: Int) -> Bool {
        queue.sync { self.generation == generation }
    }
}
