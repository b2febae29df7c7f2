import FlowStackCore
import Foundation
import Logging

/// What a rules engine does with an operation when a rule fails (script error, budget, bad
/// return value, async host call in a sync navigation).
public enum FlowFailurePolicy: String, Hashable, Sendable {
    /// Block the operation (the default): a broken rule never lets a guarded screen through.
    case failClosed
    /// Let the operation run; the failure is still recorded in the history's reason.
    case failOpen
}

/// A problem the engine noticed without failing: a style attribute it ignored, a rule that
/// failed under the fail-open policy, a deep-link pattern that can never match.
public struct FlowScriptDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How serious it is.
    public enum Severity: String, Hashable, Sendable {
        /// Worth fixing; nothing broke.
        case warning
        /// Something failed.
        case error
    }

    /// How serious it is.
    public let severity: Severity
    /// The script file, if known.
    public let file: String?
    /// The line, if known.
    public let line: Int?
    /// What happened and what to do.
    public let message: String

    /// Creates a diagnostic.
    public init(severity: Severity, file: String? = nil, line: Int? = nil, message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: warning: message`.
    public var description: String {
        let location = [file, line.map(String.init)].compactMap { $0 }.joined(separator: ":")
        return (location.isEmpty ? "" : location + ": ") + "\(severity.rawValue): \(message)"
    }
}

/// How a rules engine is set up.
public struct FlowRulesConfiguration: Sendable {
    /// VM instructions one rule call may run (default 1,000,000).
    public var instructionBudget: Int
    /// Bytes one rules VM may hold (default 32 MiB).
    public var memoryBudget: Int
    /// What a failing rule does to its operation (default: block it).
    public var failurePolicy: FlowFailurePolicy
    /// The route manifest, if the project has one.
    public var manifest: FlowManifest?
    /// Where diagnostics and script `print` output go.
    public var logger: Logger

    /// Creates a configuration with the spec's defaults.
    public init(
        instructionBudget: Int = 1_000_000,
        memoryBudget: Int = 32 << 20,
        failurePolicy: FlowFailurePolicy = .failClosed,
        manifest: FlowManifest? = nil,
        logger: Logger = Logger(label: "FlowScript")
    ) {
        self.instructionBudget = instructionBudget
        self.memoryBudget = memoryBudget
        self.failurePolicy = failurePolicy
        self.manifest = manifest
        self.logger = logger
    }
}

/// The outcome of loading or reloading rules.
public enum FlowReloadResult: Sendable, Equatable {
    /// The rules loaded; this generation is now in force.
    case loaded(generation: Int)
    /// The rules did not load; the previous generation stays in force.
    case failed(FlowScriptError, keptGeneration: Int)
}

/// One rules file: its name as errors show it, and its text.
public struct FlowRulesSource: Hashable, Sendable {
    /// The name errors use (`rules/paywall.lua`).
    public var name: String
    /// The Lua source.
    public var text: String

    /// Creates a source.
    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }

    /// Every `*.lua` file below `directory`, in lexical order of their relative paths, named
    /// `<directory name>/<relative path>`.
    public static func directory(_ directory: URL) throws(FlowScriptError) -> [FlowRulesSource] {
        let base = directory.standardizedFileURL
        let prefix = base.lastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: base.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FlowScriptError(kind: .runtime, file: prefix, message: "rules directory \(base.path) does not exist; create it or pass the right path")
        }
        var relativePaths: [String] = []
        FlowRulesSource.collectLuaFiles(in: base.path, relative: "", into: &relativePaths, depth: 0)
        var sources: [FlowRulesSource] = []
        for relative in relativePaths.sorted() {
            guard let data = FileManager.default.contents(atPath: base.path + "/" + relative),
                  let text = String(data: data, encoding: .utf8) else {
                throw FlowScriptError(kind: .runtime, file: "\(prefix)/\(relative)", message: "cannot read the file as UTF-8 text")
            }
            sources.append(FlowRulesSource(name: "\(prefix)/\(relative)", text: text))
        }
        return sources
    }
}

extension FlowRulesSource {
    /// Appends the relative paths of the `*.lua` files below `path` (hidden files and folders
    /// skipped, links to files followed, links to folders not, at most 32 folders deep). Walks with `opendir` and
    /// `readdir`: it runs on every reload, and Foundation's enumerator costs several times more.
    static func collectLuaFiles(in path: String, relative: String, into paths: inout [String], depth: Int) {
        guard depth < 32, let directory = opendir(path) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard !name.hasPrefix(".") else { continue }  // ".", "..", and hidden files and folders
            let full = path + "/" + name
            let childRelative = relative.isEmpty ? name : relative + "/" + name
            var isDirectory = Int32(entry.pointee.d_type) == Int32(DT_DIR)
            var isFile = Int32(entry.pointee.d_type) == Int32(DT_REG)
            if Int32(entry.pointee.d_type) == Int32(DT_LNK) {
                // A link to a file counts; links to folders are not followed (no loops).
                var info = stat()
                guard stat(full, &info) == 0 else { continue }
                isFile = (info.st_mode & S_IFMT) == S_IFREG
            } else if !isDirectory && !isFile {  // a file system that does not say: ask lstat
                var info = stat()
                guard lstat(full, &info) == 0 else { continue }
                isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
                isFile = (info.st_mode & S_IFMT) == S_IFREG
                if (info.st_mode & S_IFMT) == S_IFLNK {
                    guard stat(full, &info) == 0 else { continue }
                    isFile = (info.st_mode & S_IFMT) == S_IFREG
                }
            }
            if isDirectory {
                collectLuaFiles(in: full, relative: childRelative, into: &paths, depth: depth + 1)
            } else if isFile, name.hasSuffix(".lua") {
                paths.append(childRelative)
            }
        }
    }
}
