#if os(Linux) || os(Android)
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

/// inotify on the root directory and every subdirectory, read through a dispatch read source.
final class DirectoryWatcherBackend {
    private unowned let core: DirectoryWatcherCore
    private let descriptor: Int32
    private let source: DispatchSourceRead
    private let closed = DispatchGroup()
    /// Watched directories by watch descriptor (relative paths, "" for the root).
    private var directories: [Int32: String] = [:]

    private static let mask = UInt32(
        IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF
            | IN_ONLYDIR)

    /// Opens inotify and watches the tree. On the core's queue.
    init(core: DirectoryWatcherCore) throws(DirectoryWatcherError) {
        self.core = core
        let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw DirectoryWatcherError.fromErrno(core.root) }
        self.descriptor = descriptor
        self.source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: core.queue)
        addWatches(under: "")
        guard !directories.isEmpty else {
            let error = DirectoryWatcherError.fromErrno(core.root)
            // A dispatch source must be resumed before it is released.
            source.setCancelHandler { closeDescriptor(descriptor) }
            source.resume()
            source.cancel()
            throw error
        }
        let group = closed
        group.enter()
        source.setEventHandler { [weak self] in self?.readEvents() }
        source.setCancelHandler {
            closeDescriptor(descriptor)
            group.leave()
        }
        source.resume()
    }

    /// Cancels the source and waits until its descriptor is closed. Not on the core's queue.
    package func close() {
        source.cancel()
        _ = closed.wait(timeout: .now() + .seconds(2))
    }

    /// Watches `relative` (relative to the root) and its subdirectories.
    private func addWatches(under relative: String) {
        let path = relative.isEmpty ? core.root : core.root + "/" + relative
        let watch = inotify_add_watch(descriptor, path, Self.mask)
        guard watch >= 0 else { return }
        directories[watch] = relative
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names.sorted() {
            var isDirectory: ObjCBool = false
            let child = relative.isEmpty ? name : relative + "/" + name
            if FileManager.default.fileExists(atPath: core.root + "/" + child, isDirectory: &isDirectory),
               isDirectory.boolValue, directories.count < 4096 {
                addWatches(under: child)
            }
        }
    }

    /// Reads every pending event. On the core's queue.
    private func readEvents() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var changed: [String] = []
        var sawEvents = false
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            sawEvents = true
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                let header = 16
                while offset + header <= count {
                    let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = bytes[(offset + header)..<min(offset + header + length, count)]
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    handle(watch: watch, mask: mask, name: name, changed: &changed)
                    offset += header + length
                }
            }
        }
        if sawEvents, !changed.isEmpty { core.changed(changed) }
    }

    private func handle(watch: Int32, mask: UInt32, name: String, changed: inout [String]) {
        if mask & UInt32(IN_Q_OVERFLOW) != 0 {
            // Events were lost: report a change of unknown paths.
            core.changed([])
            return
        }
        guard let directory = directories[watch] else { return }
        if mask & UInt32(IN_IGNORED) != 0 {
            directories[watch] = nil
            return
        }
        let path = name.isEmpty ? directory : (directory.isEmpty ? name : directory + "/" + name)
        if mask & UInt32(IN_ISDIR) != 0, mask & (UInt32(IN_CREATE) | UInt32(IN_MOVED_TO)) != 0 {
            addWatches(under: path)
        }
        changed.append(path)
    }
}
/// Closes a file descriptor (the backend's own `close()` hides the C function).
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}
#endif
