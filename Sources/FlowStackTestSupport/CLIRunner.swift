// Runs the `flowstack` binary for the process-based tests. Not a product: never shipped.
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the built `flowstack` binary and captures what it prints, without holding a thread while
/// it waits: the process-based tests of all targets run concurrently, and two blocked threads
/// would stall the whole concurrency pool of a 2-core machine.
public enum CLIRunner {
    /// What one run produced.
    public struct Output: Sendable {
        /// The exit status (128 + the signal for a process a signal ended, as a shell reports it).
        public let status: Int32
        /// What the process printed on standard output.
        public let stdout: String
        /// What the process printed on standard error.
        public let stderr: String

        /// The lines of standard output.
        public var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty() }
    }

    /// The package root.
    public static let packageRoot = FlowStackBinary.packageRoot

    /// The `flowstack` binary (`FlowStackBinary.url`).
    public static let binary: URL? = FlowStackBinary.url

    /// The error when the binary is missing.
    public typealias MissingBinary = FlowStackBinary.Missing

    /// How many processes `run` starts at once: two a core. The tests that call it all start
    /// together; more processes than that would only share the cores and run into their timeouts.
    public static let concurrentRuns = 2 * max(ProcessInfo.processInfo.activeProcessorCount, 1)

    /// The slots `run` waits for.
    private static let slots = ProcessSlots(concurrentRuns)

    /// Runs `flowstack arguments...` in `directory` and waits (at most `timeout` seconds from its
    /// start; then the process is terminated) without blocking a thread. At most
    /// `concurrentRuns` run at once; the others wait for a slot first.
    public static func run(_ arguments: [String], in directory: URL = packageRoot, timeout: TimeInterval = 60) async throws -> Output {
        guard let binary else { throw MissingBinary() }
        return try await run(binary, arguments, in: directory, timeout: timeout)
    }

    /// Runs another tool as `run` runs `flowstack` (luacheck on what `types` writes, a script
    /// of `Tools/`).
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL = packageRoot, timeout: TimeInterval = 60
    ) async throws -> Output {
        await slots.acquire()
        do {
            let output = try await runNow(executable, arguments, in: directory, timeout: timeout)
            await slots.release()
            return output
        } catch {
            await slots.release()
            throw error
        }
    }

    /// `run` once it has its slot.
    private static func runNow(_ executable: URL, _ arguments: [String], in directory: URL, timeout: TimeInterval) async throws -> Output {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        process.environment = environment
        process.standardOutput = out
        process.standardError = err
        let exit = ProcessExit()
        process.terminationHandler = { _ in exit.signal() }
        try process.run()
        let pid = process.processIdentifier
        let watchdog = Task {
            try await Task.sleep(for: .seconds(timeout))
            kill(pid, SIGTERM)
        }
        await exit.wait()
        watchdog.cancel()
        try out.close()
        try err.close()
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

/// A counting semaphore for tasks: `acquire()` suspends (first come, first served) while every
/// slot is taken.
actor ProcessSlots {
    private var free: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Slots for `count` holders at once.
    init(_ count: Int) {
        free = count
    }

    /// Takes a slot, waiting for one.
    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Gives a slot back: to the first waiter, or to the free ones.
    func release() {
        if waiters.isEmpty {
            free += 1
        } else {
            waiters.removeFirst().resume()
        }
    }
}

/// A process's end, awaited once: `signal()` from its termination handler, `wait()` from the test.
final class ProcessExit: @unchecked Sendable {
    private let lock = NSLock()
    private var ended = false
    private var waiter: CheckedContinuation<Void, Never>?

    /// The process ended.
    func signal() {
        lock.lock()
        ended = true
        let waiter = self.waiter
        self.waiter = nil
        lock.unlock()
        waiter?.resume()
    }

    /// Returns once `signal()` has been called.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if ended {
                lock.unlock()
                continuation.resume()
            } else {
                waiter = continuation
                lock.unlock()
            }
        }
    }
}

extension CLIRunner {
    /// What `launch` saw of one process.
    public struct Launched: Sendable {
        /// The exit status and what the process printed.
        public let output: Output
        /// Whether the process ran past its time limit and was killed.
        public let timedOut: Bool
        /// The process's largest resident set, in megabytes, as sampled while it ran (Linux;
        /// `nil` elsewhere).
        public let residentMegabytes: Int?
    }

    /// Runs `flowstack arguments...` in the package root without holding a thread of the
    /// concurrency pool while it runs, so that many can run at once; a run past `timeout` is
    /// killed. With `smallStack`, the process (main thread included) runs on a 512 KiB C stack,
    /// what iOS gives a secondary thread (`Tools/small-stack.sh`).
    ///
    /// Started with `posix_spawn` and waited for on a thread of its own, which samples the
    /// process's resident high-water mark (`VmHWM` in `/proc/PID/status`, every 5 ms): the
    /// `ru_maxrss` that `wait4` reports counts the memory of the test process it was spawned from.
    public static func launch(_ arguments: [String], smallStack: Bool = false, timeout: Duration = .seconds(60)) async throws -> Launched {
        let binary = try FlowStackBinary.require()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("stdout").path
        let errPath = scratch.appendingPathComponent("stderr").path
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        var command = [binary.path] + arguments
        if smallStack {
            command = ["/bin/bash", packageRoot.appendingPathComponent("Tools/small-stack.sh").path] + arguments
            environment["FLOWSTACK_SMALL_STACK_BINARY"] = binary.path
        }
        let pid = try spawn(command, environment: environment, stdout: outPath, stderr: errPath)
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            kill(pid, SIGKILL)
        }
        let (status, peakKilobytes) = await withCheckedContinuation { (continuation: CheckedContinuation<(Int32, Int?), Never>) in
            Thread.detachNewThread {
                var status: Int32 = 0
                var peak: Int?
                while true {
                    let reaped = waitpid(pid, &status, WNOHANG)
                    if reaped == pid || (reaped == -1 && errno != EINTR) { break }
                    if let sample = highWaterKilobytes(of: pid) { peak = max(peak ?? 0, sample) }
                    usleep(5_000)
                }
                continuation.resume(returning: (status, peak))
            }
        }
        watchdog.cancel()
        let timedOut = (try? await watchdog.value) != nil
        // The exit code, or 128 + the signal that ended the process (as a shell reports it).
        let exitStatus = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + status & 0x7F
        let output = Output(
            status: exitStatus,
            stdout: String(decoding: try Data(contentsOf: URL(fileURLWithPath: outPath)), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self))
        return Launched(output: output, timedOut: timedOut, residentMegabytes: peakKilobytes.map { $0 / 1024 })
    }

    /// The resident high-water mark of a running process in kilobytes (Linux), or `nil`.
    private static func highWaterKilobytes(of pid: pid_t) -> Int? {
        #if os(Linux)
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        #else
        return nil
        #endif
    }

    /// A process that could not be started.
    public struct SpawnFailure: Error, CustomStringConvertible {
        /// The executable.
        public let path: String
        /// The `posix_spawn` error.
        public let code: Int32
        /// What failed and why.
        public var description: String { "cannot start \(path): \(String(cString: strerror(code)))" }
    }

    /// Starts `command` (an executable's path, then its arguments) with standard output and
    /// error written to the files at `stdout` and `stderr`; returns its process identifier.
    private static func spawn(_ command: [String], environment: [String: String], stdout: String, stderr: String) throws -> pid_t {
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = command.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
        guard result == 0 else {
            throw SpawnFailure(path: command[0], code: result)
        }
        return pid
    }
}

extension Array where Element == String {
    /// Without the empty string a trailing newline leaves.
    public func dropLastIfEmpty() -> [String] {
        last == "" ? Array(dropLast()) : self
    }
}

/// A flow project in a temporary directory, removed by `remove()`.
public struct TemporaryProject {
    /// The project directory.
    public let url: URL

    /// Writes `files` (relative path → contents) into a fresh directory.
    public init(_ files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-project-\(UUID().uuidString)")
        for (path, contents) in files {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: file)
        }
    }

    /// The path to pass to the command.
    public var path: String { url.path }

    /// Deletes the directory.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// A small project: home, detail (with an id) and login; a login guard on detail.
    public static let manifest = """
        return {
          root = "home",
          routes = { home = {}, login = {}, detail = { params = { id = "string" } } },
          dialogs = { "oops" },
          facts = { isLoggedIn = false },
        }
        """

    /// A guard on detail that sends a logged-out user to login.
    public static let rules = """
        flow.guard("detail", function(op, stacks, ctx)
          if not facts.isLoggedIn then
            return flow.redirect("sheet", "login", "login required")
          end
        end)
        """
}
