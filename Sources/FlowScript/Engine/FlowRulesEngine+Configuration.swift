import FlowLua
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
    package init(severity: Severity, file: String? = nil, line: Int? = nil, message: String) {
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
    ///
    /// - Throws: `FlowScriptError` naming the file when the directory does not exist, or when a
    ///   file cannot be read (not UTF-8 in its contents or its name, unreadable, deeper than
    ///   `maximumFolderDepth`): the first such file in lexical order. `listing(_:)` reports
    ///   every one of them and still reads the others.
    package static func directory(_ directory: URL) throws(FlowScriptError) -> [FlowRulesSource] {
        let listing = try listing(directory)
        if let first = listing.problems.first { throw first }
        return listing.sources
    }

    /// The files of `directory()` that read, and one error (with the file's name, and the line
    /// for text that is not UTF-8) for each file or folder that did not, in lexical order: what
    /// `flowstack check` reports while it checks every other file.
    ///
    /// - Throws: `FlowScriptError` when the directory does not exist.
    package static func listing(_ directory: URL) throws(FlowScriptError) -> (sources: [FlowRulesSource], problems: [FlowScriptError]) {
        let base = directory.standardizedFileURL
        let prefix = base.lastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: base.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FlowScriptError(kind: .runtime, file: prefix, message: "rules directory \(base.path) does not exist; create it or pass the right path")
        }
        var walk = LuaFileWalk(prefix: prefix)
        walk.collect(in: base.path, relative: "", depth: 1)
        var sources: [FlowRulesSource] = []
        var problems = walk.problems
        for relative in walk.paths.sorted() {
            let name = "\(prefix)/\(relative)"
            do {
                sources.append(FlowRulesSource(name: name, text: try FlowSourceFile.text(atPath: base.path + "/" + relative, displayName: name)))
            } catch {
                problems.append(error)
            }
        }
        problems.sort { ($0.file ?? "") < ($1.file ?? "") }
        return (sources, problems)
    }

    /// The most folders a rules file's path may have, its top folder included (`rules/a/x.lua`
    /// has 2): `test`, `check`, `serve`, apps and `bundle` read no file deeper, and report one.
    package static let maximumFolderDepth = 32
}

/// Finds the `*.lua` files below a folder (hidden files and folders skipped, links to files
/// followed, links to folders not: no loops), and what it cannot read: a name that is not
/// UTF-8, a folder it cannot open, a file deeper than `FlowRulesSource.maximumFolderDepth`.
/// Walks with `opendir` and `readdir`: it runs on every reload, and Foundation's enumerator
/// costs several times more.
struct LuaFileWalk {
    /// The folder's name, for messages (`rules`).
    package let prefix: String
    /// The relative paths of the files to read.
    var paths: [String] = []
    /// What could not be read, with the path named.
    var problems: [FlowScriptError] = []

    init(prefix: String) {
        self.prefix = prefix
    }

    private mutating func problem(_ relative: String, _ message: String) {
        problems.append(FlowScriptError(kind: .runtime, file: relative.isEmpty ? prefix : "\(prefix)/\(relative)", message: message))
    }

    /// Walks `path` (whose files have `depth` folders, the top one included).
    mutating func collect(in path: String, relative: String, depth: Int) {
        guard let directory = opendir(path) else {
            problem(relative, "cannot open the folder: \(String(cString: strerror(errno))); check its permissions")
            return
        }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
            guard bytes.first != UInt8(ascii: ".") else { continue }  // ".", "..", and hidden files and folders
            let (name, isUTF8) = FlowSourceFile.name(bytes)
            let full = path + "/" + name
            let childRelative = relative.isEmpty ? name : relative + "/" + name
            var isDirectory = Int32(entry.pointee.d_type) == Int32(DT_DIR)
            var isFile = Int32(entry.pointee.d_type) == Int32(DT_REG)
            let isLink = Int32(entry.pointee.d_type) == Int32(DT_LNK)
            if !isUTF8 {
                // The name cannot be spelled in errors, in Lua chunk names or in a bundle.
                if isDirectory || bytes.suffix(4).elementsEqual(".lua".utf8) {
                    let what = isDirectory ? "folder" : "file"
                    problem(childRelative, "the \(what) name is not UTF-8, so the \(what) is not read: rename it")
                }
                continue
            }
            if isLink {
                // A link to a file counts; links to folders are not followed (no loops).
                var info = stat()
                isFile = stat(full, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
            } else if !isDirectory && !isFile {  // a file system that does not say: ask lstat
                var info = stat()
                if lstat(full, &info) == 0 {
                    isDirectory = (info.st_mode & S_IFMT) == S_IFDIR
                    isFile = (info.st_mode & S_IFMT) == S_IFREG
                    if (info.st_mode & S_IFMT) == S_IFLNK {
                        isFile = stat(full, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
                    }
                }
            }
            if isDirectory {
                collect(in: full, relative: childRelative, depth: depth + 1)
            } else if name.hasSuffix(".lua") {
                if !isFile {
                    // Never skipped in silence: a bundle or an app would not read it either.
                    problem(childRelative, "is not a regular file (a FIFO, a device, a socket, or a link to a folder "
                        + "or to nothing), so it is not read: replace it with a Lua file")
                } else if depth > FlowRulesSource.maximumFolderDepth {
                    problem(childRelative, "the file is \(depth) folders deep, more than the \(FlowRulesSource.maximumFolderDepth) "
                        + "FlowStack reads (tests, check, bundles and apps alike): move it up")
                } else {
                    paths.append(childRelative)
                }
            }
        }
    }
}
