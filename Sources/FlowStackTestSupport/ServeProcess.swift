// A `flowstack serve` process for the bundle and live-rules tests. Not a product: never shipped.
import Foundation

/// A `flowstack serve` process on 127.0.0.1 for a temporary project, and what it printed.
public final class ServeProcess: @unchecked Sendable {
    /// The server's base URL.
    public let url: URL
    /// The port it listens on.
    public let port: Int
    private let process: Process
    private let sink = OutputSink()

    /// The flowstack binary (`FlowStackBinary.url`).
    public static let binary: URL? = FlowStackBinary.url

    /// A server that did not start, or a project file that could not be written.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String

        /// Creates the error.
        public init(description: String) {
            self.description = description
        }
    }

    /// Starts `flowstack serve DIR --host 127.0.0.1 --port PORT --token TOKEN [extra]` and waits
    /// (at most 30 s) for it to print its URL and serve the first generation, polling every 10 ms
    /// without holding the caller's thread (a test on the main actor leaves it to the others).
    public init(project: URL, token: String, port: Int = 0, extra: [String] = []) async throws {
        guard let binary = Self.binary else {
            throw Failure(description: "the flowstack binary was not found; build it with `swift build --build-tests`")
        }
        process = Process()
        process.executableURL = binary
        process.arguments = ["serve", project.path, "--host", "127.0.0.1", "--port", String(port), "--token", token] + extra
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        sink.collect(pipe)
        try process.run()
        var found: Int?
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, process.isRunning {
            let text = sink.text
            if text.contains("serving generation"), let line = text.split(separator: "\n").first(where: { $0.hasPrefix("url: http://127.0.0.1:") }) {
                found = Int(line.split(separator: ":").last ?? "")
                break
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        guard let found else {
            process.terminate()
            throw Failure(description: "flowstack serve did not start: \(sink.text)")
        }
        self.port = found
        self.url = URL(string: "http://127.0.0.1:\(found)")!
    }

    /// Everything printed so far.
    public var output: String { sink.text }

    /// Waits (at most `timeout` seconds) until the output after `offset` contains `fragment`.
    @MainActor
    public func waitForOutput(_ fragment: String, after offset: Int = 0, timeout: TimeInterval = 30) async -> Bool {
        await eventually(timeout: .seconds(timeout)) { String(self.output.dropFirst(offset)).contains(fragment) }
    }

    /// Stops the server and waits for it to exit.
    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit {
        stop()
    }
}

/// A rules project in a temporary directory.
public struct LiveProject {
    /// The project directory.
    public let url: URL

    /// A project whose `rules/gate.lua` blocks `editor` with `reason`.
    public init(reason: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url.appendingPathComponent("rules"), withIntermediateDirectories: true)
        try Data("return { root = \"home\", routes = { home = {}, editor = {} } }\n".utf8)
            .write(to: url.appendingPathComponent("routes.lua"))
        try setGate(reason: reason)
    }

    /// Rewrites `rules/gate.lua`: a guard blocking `editor` with `reason`.
    public func setGate(reason: String) throws {
        try write(#"flow.guard("editor", function() return false, "\#(reason)" end)"# + "\n")
    }

    /// Replaces `rules/gate.lua` with `text` (write then rename, as editors save).
    public func write(_ text: String) throws {
        let temporary = url.appendingPathComponent("rules/.gate.lua.tmp")
        try Data(text.utf8).write(to: temporary)
        guard rename(temporary.path, url.appendingPathComponent("rules/gate.lua").path) == 0 else {
            throw ServeProcess.Failure(description: "cannot rename \(temporary.path)")
        }
    }

    /// Deletes the directory.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
