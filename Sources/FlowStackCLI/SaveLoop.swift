import FlowScript
import Foundation

/// Calls `onSave` after every save of a `.lua` file below `directory` (debounced: an editor's
/// write-then-rename gives one call) until Ctrl-C, then prints `stopped`. `watch` and `serve`
/// share it. `watching` is called once the directory is watched and Ctrl-C is handled.
@MainActor
func forEachSave(
    of directory: URL, terminal: Terminal, stopped: String, watching: () -> Void = {}, _ onSave: () async -> Void
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
    let stop = StopSignals { terminal.line(stopped) }
    watching()
    for await _ in changes {
        await onSave()
    }
    watcher.stop()
    stop.cancel()
}
