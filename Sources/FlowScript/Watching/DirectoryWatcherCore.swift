import Dispatch
import Foundation

/// The thread-safe part of a watcher: all its state lives on a private serial queue.
final class DirectoryWatcherCore: @unchecked Sendable {
    /// The watched directory's path.
    package let root: String
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
    package func start() throws(DirectoryWatcherError) {
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
    package func changed(_ paths: [String]) {
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
