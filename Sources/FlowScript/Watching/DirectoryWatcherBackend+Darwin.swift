#if canImport(Darwin)
import Darwin
import Dispatch
import Foundation

/// Dispatch file-system sources on the root, its subdirectories and their files.
///
/// A directory source sees entries added, removed or renamed (including an editor's
/// temporary file renamed over the original); a file source sees in-place writes. After any
/// event the tree is rescanned, so new entries are watched and replaced files re-opened.
///
/// `@unchecked Sendable`: dispatch's handlers are `@Sendable` closures in the Swift 6 SDKs, and
/// they capture this object; every mutable property is touched on the core's serial queue only
/// (the handlers run there, `close()` enters it with `sync`), as with `DirectoryWatcherCore`.
final class DirectoryWatcherBackend: @unchecked Sendable {
    private unowned let core: DirectoryWatcherCore
    /// Sources by relative path ("" for the root). Touched on the core's queue only.
    private var sources: [String: DispatchSourceFileSystemObject] = [:]
    private var isClosed = false
    private let closed = DispatchGroup()
    /// The most entries watched (each holds a file descriptor).
    private static let limit = 1024

    /// Watches the tree. On the core's queue.
    init(core: DirectoryWatcherCore) throws(DirectoryWatcherError) {
        self.core = core
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: core.root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DirectoryWatcherError(path: core.root, reason: "not a directory")
        }
        guard watch("") else { throw DirectoryWatcherError.fromErrno(core.root) }
        rescan()
    }

    /// Cancels every source and waits until their descriptors are closed. Not on the core's queue.
    package func close() {
        core.queue.sync {
            isClosed = true
            for source in sources.values { source.cancel() }
            sources.removeAll()
        }
        _ = closed.wait(timeout: .now() + .seconds(2))
    }

    /// Watches every entry of the tree not watched yet and forgets vanished ones.
    private func rescan() {
        var present: Set<String> = [""]
        if let enumerator = FileManager.default.enumerator(atPath: core.root) {
            while present.count < Self.limit, let relative = enumerator.nextObject() as? String {
                present.insert(relative)
            }
        }
        for (path, source) in sources where !present.contains(path) {
            source.cancel()
            sources[path] = nil
        }
        for path in present.sorted() where sources[path] == nil {
            _ = watch(path)
        }
    }

    /// Opens a source on `relative`; false when it cannot be opened.
    private func watch(_ relative: String) -> Bool {
        let path = relative.isEmpty ? core.root : core.root + "/" + relative
        let descriptor = open(path, O_EVTONLY)
        guard descriptor >= 0 else { return false }
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
        let source = DispatchSource.makeFileSystemObjectSource(
            fileDescriptor: descriptor, eventMask: [.write, .extend, .delete, .rename, .link, .attrib, .revoke],
            queue: core.queue)
        let group = closed
        group.enter()
        let directory = isDirectory.boolValue
        // Captures only Sendable values: the source is looked up again on the queue.
        source.setEventHandler { [weak self] in
            self?.fired(relative, isDirectory: directory)
        }
        source.setCancelHandler {
            _ = Darwin.close(descriptor)
            group.leave()
        }
        sources[relative] = source
        source.resume()
        return true
    }

    /// Handles an event of the source on `relative`. On the core's queue.
    private func fired(_ relative: String, isDirectory: Bool) {
        guard !isClosed, let source = sources[relative] else { return }
        if !source.data.intersection([.delete, .rename, .revoke]).isEmpty {
            // The inode went away (deleted, or replaced by a rename): watch the path afresh.
            source.cancel()
            sources[relative] = nil
        }
        rescan()
        // A directory event does not say which entry changed.
        core.changed(isDirectory ? [] : [relative])
    }
}
#endif
