import FlowStackTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `flowstack serve` process on 127.0.0.1 for a temporary project, and what it printed.
final class ServeProcess: @unchecked Sendable {
    /// The server's base URL.
    let url: URL
    let port: Int
    private let process: Process
    private let sink = OutputSink()

    /// The flowstack binary (`FlowStackBinary.url`).
    static let binary: URL? = FlowStackBinary.url

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts `flowstack serve DIR --host 127.0.0.1 --port PORT --token TOKEN [extra]` and waits
    /// (at most 30 s) for it to print its URL and serve the first generation.
    init(project: URL, token: String, port: Int = 0, extra: [String] = []) throws {
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
            Thread.sleep(forTimeInterval: 0.01)
        }
        guard let found else {
            process.terminate()
            throw Failure(description: "flowstack serve did not start: \(sink.text)")
        }
        self.port = found
        self.url = URL(string: "http://127.0.0.1:\(found)")!
    }

    /// Everything printed so far.
    var output: String { sink.text }

    /// Waits (at most `timeout` seconds) until the output after `offset` contains `fragment`.
    func waitForOutput(_ fragment: String, after offset: Int = 0, timeout: TimeInterval = 30) async -> Bool {
        await eventually(timeout: .seconds(timeout)) { String(self.output.dropFirst(offset)).contains(fragment) }
    }

    /// Stops the server and waits for it to exit.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit {
        stop()
    }
}

/// A rules project in a temporary directory.
struct LiveProject {
    let url: URL

    init(reason: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-live-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url.appendingPathComponent("rules"), withIntermediateDirectories: true)
        try Data("return { root = \"home\", routes = { home = {}, editor = {} } }\n".utf8)
            .write(to: url.appendingPathComponent("routes.lua"))
        try setGate(reason: reason)
    }

    /// Rewrites `rules/gate.lua`: a guard blocking `editor` with `reason`.
    func setGate(reason: String) throws {
        try write(#"flow.guard("editor", function() return false, "\#(reason)" end)"# + "\n")
    }

    /// Replaces `rules/gate.lua` with `text` (write then rename, as editors save).
    func write(_ text: String) throws {
        let temporary = url.appendingPathComponent("rules/.gate.lua.tmp")
        try Data(text.utf8).write(to: temporary)
        guard rename(temporary.path, url.appendingPathComponent("rules/gate.lua").path) == 0 else {
            throw ServeProcess.Failure(description: "cannot rename \(temporary.path)")
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
