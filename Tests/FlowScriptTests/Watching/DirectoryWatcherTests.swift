import FlowStackTestSupport
import Foundation
import Testing
@testable import FlowScript

/// Counts callbacks on the main actor.
@MainActor
final class CallbackCounter {
    private(set) var count = 0
    func hit() { count += 1 }
}

@Suite("Directory watcher", .enabled(if: TestTier.slow), .serialized)
@MainActor
struct DirectoryWatcherTests {
    /// A fresh temporary directory with a `rules/` subdirectory.
    func makeDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("flowscript-watch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("rules"), withIntermediateDirectories: true)
        return directory
    }

    func write(_ text: String, to url: URL) throws {
        try Data(text.utf8).write(to: url)
    }

    @Test("Several quick writes give one callback, after the debounce")
    func debounced() async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let counter = CallbackCounter()
        let watcher = DirectoryWatcher(directory: directory, debounce: .milliseconds(300)) { counter.hit() }
        try watcher.start()
        defer { watcher.stop() }
        let file = directory.appendingPathComponent("rules/paywall.lua")
        let started = ContinuousClock.now
        var previous = started
        var longestGap = Duration.zero
        for index in 0..<5 {
            try write("-- version \(index)", to: file)
            let now = ContinuousClock.now
            longestGap = max(longestGap, now - previous)
            previous = now
        }
        #expect(await eventually { counter.count >= 1 })
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        // A window in which nothing may happen (no event to wait for): no second callback, unless
        // the machine stalled this thread between two writes for longer than the debounce (then
        // the burst is rightly two).
        try await Task.sleep(for: .milliseconds(500))
        if longestGap < .milliseconds(250) {
            #expect(counter.count == 1, "the longest gap between writes was \(longestGap)")
        } else {
            #expect((1...2).contains(counter.count), "the longest gap between writes was \(longestGap)")
        }
        let settled = counter.count
        try write("-- later", to: directory.appendingPathComponent("top.lua"))
        #expect(await eventually { counter.count > settled })
    }

    @Test("Saving by writing a temporary file and renaming it triggers a callback")
    func renameSave() async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("rules/guard.lua")
        try write("-- v1", to: target)
        let counter = CallbackCounter()
        let watcher = DirectoryWatcher(directory: directory, debounce: .milliseconds(50), includes: { $0.hasSuffix(".lua") }) {
            counter.hit()
        }
        try watcher.start()
        defer { watcher.stop() }
        // A temporary file alone is filtered out...
        let temporary = directory.appendingPathComponent("rules/.guard.lua.swp")
        try write("-- v2", to: temporary)
        try await Task.sleep(for: .milliseconds(250))
        #expect(counter.count == 0)
        // ...and renaming it over the original counts.
        #expect(rename(temporary.path, target.path) == 0)
        #expect(await eventually { counter.count >= 1 })
        #expect(try String(contentsOf: target, encoding: .utf8) == "-- v2")
    }

    @Test("Subdirectories created after start are watched")
    func newSubdirectory() async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let counter = CallbackCounter()
        let watcher = DirectoryWatcher(directory: directory, debounce: .milliseconds(50), includes: { $0.hasSuffix(".lua") }) {
            counter.hit()
        }
        try watcher.start()
        defer { watcher.stop() }
        let nested = directory.appendingPathComponent("rules/nested")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        try await Task.sleep(for: .milliseconds(200))
        #expect(counter.count == 0)
        try write("-- nested", to: nested.appendingPathComponent("deep.lua"))
        #expect(await eventually { counter.count >= 1 })
    }

    @Test("Stop closes the descriptors and no callback follows")
    func stopReleases() async throws {
        let directory = try makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = watcherDescriptorCount()
        let counter = CallbackCounter()
        let watcher = DirectoryWatcher(directory: directory, debounce: .milliseconds(50)) { counter.hit() }
        try watcher.start()
        #expect(watcher.isRunning)
        #if os(Linux)
        #expect(watcherDescriptorCount() == before + 1)
        #endif
        try write("-- pending", to: directory.appendingPathComponent("rules/a.lua"))
        watcher.stop()
        #expect(!watcher.isRunning)
        #expect(watcherDescriptorCount() == before)
        try write("-- after stop", to: directory.appendingPathComponent("rules/b.lua"))
        try await Task.sleep(for: .milliseconds(250))
        #expect(counter.count == 0)
        // A stopped watcher can start again.
        try watcher.start()
        try write("-- restarted", to: directory.appendingPathComponent("rules/c.lua"))
        #expect(await eventually { counter.count >= 1 })
        watcher.stop()
        #expect(watcherDescriptorCount() == before)
    }

    @Test("Watching a missing directory fails with its path")
    func missingDirectory() {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("flowscript-missing-\(UUID().uuidString)")
        let watcher = DirectoryWatcher(directory: missing) {}
        #expect(throws: DirectoryWatcherError.self) { try watcher.start() }
        #expect(!watcher.isRunning)
        do {
            try watcher.start()
        } catch {
            #expect(error.description.hasPrefix("cannot watch \(missing.standardizedFileURL.path): "))
        }
    }

    /// Open inotify descriptors of this process (Linux), or all descriptors elsewhere.
    func watcherDescriptorCount() -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        #if os(Linux)
        return entries.filter { entry in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + entry)) == "anon_inode:inotify"
        }.count
        #else
        return entries.count
        #endif
    }
}
