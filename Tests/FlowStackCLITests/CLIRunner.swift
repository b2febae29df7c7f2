import Foundation

/// Runs the built `flowstack` binary and captures what it prints.
struct CLIRunner {
    /// What one run produced.
    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String

        /// The lines of standard output.
        var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLastIfEmpty() }
    }

    /// The package root (this file is Tests/FlowStackCLITests/CLIRunner.swift).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `flowstack` binary: `FLOWSTACK_BINARY`, next to the test bundle, or in `.build/debug`.
    static let binary: URL? = {
        let fileManager = FileManager.default
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["FLOWSTACK_BINARY"] {
            candidates.append(URL(fileURLWithPath: path))
        }
        let executable = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).standardizedFileURL
        var directory = executable.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent("flowstack"))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("flowstack"))
        candidates.append(packageRoot.appendingPathComponent(".build/debug/flowstack"))
        return candidates.first { url in
            var isDirectory: ObjCBool = false
            return fileManager.isExecutableFile(atPath: url.path)
                && fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }()

    /// The error when the binary is missing.
    struct MissingBinary: Error, CustomStringConvertible {
        var description: String {
            "the flowstack binary was not found next to the test bundle nor in .build/debug; "
                + "build it with `swift build --product flowstack` (or set FLOWSTACK_BINARY)"
        }
    }

    /// Runs `flowstack arguments...` in `directory` and waits (at most `timeout` seconds).
    static func run(_ arguments: [String], in directory: URL = packageRoot, timeout: TimeInterval = 60) throws -> Output {
        guard let binary else { throw MissingBinary() }
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
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = nil
        process.environment = environment
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try out.close()
        try err.close()
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }
}

extension Array where Element == String {
    /// Without the empty string a trailing newline leaves.
    func dropLastIfEmpty() -> [String] {
        last == "" ? Array(dropLast()) : self
    }
}

/// A flow project in a temporary directory, removed by `remove()`.
struct TemporaryProject {
    let url: URL

    /// Writes `files` (relative path → contents) into a fresh directory.
    init(_ files: [String: String]) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("flowstack-project-\(UUID().uuidString)")
        for (path, contents) in files {
            let file = url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: file)
        }
    }

    /// The path to pass to the command.
    var path: String { url.path }

    /// Deletes the directory.
    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    /// A small project: home, detail (with an id) and login; a login guard on detail.
    static let manifest = """
        return {
          root = "home",
          routes = { home = {}, login = {}, detail = { params = { id = "string" } } },
          dialogs = { "oops" },
          facts = { isLoggedIn = false },
        }
        """

    static let rules = """
        flow.guard("detail", function(op, stacks, ctx)
          if not facts.isLoggedIn then
            return flow.redirect("sheet", "login", "login required")
          end
        end)
        """
}
