import FlowScript
import Foundation

/// Calls `onSave` after every save of a `.lua` file below `directory` (debounced: an editor's
/// write-then-rename gives one call) until the process ends (Ctrl-C: the caller's
/// ``StopSignals``). `watch` and `serve` share it. `watching` is called once the directory is
/// watched; a save while it runs is seen after it.
@MainActor
func forEachSave(
    of directory: URL, watching: () async -> Void, _ onSave: () async -> Void
) async throws {
    let (changes, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    let watcher = DirectoryWatcher(directory: directory, debounce: .milliseconds(50), includes: { $0.hasSuffix(".lua") }) {
        continuation.yield()
    }
    do {
        try watcher.start()
    } catch {
        throw CommandFailure("cannot watch \(directory.path): \(error). Check that the directory is readable.")
    }
    await watching()
    for await _ in changes {
        await onSave()
    }
    watcher.stop()
}
