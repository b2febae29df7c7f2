import ArgumentParser
import FlowStackCore
import FlowScript
import FlowTesting
import Foundation

/// The project directory argument every command takes.
struct ProjectArgument: ParsableArguments {
    @Argument(help: "The flow project: a directory with routes.lua, rules/ and flows/.", completion: .directory)
    var directory: String = "Scripts"

    /// The directory as a URL (relative paths from the current directory).
    var url: URL {
        URL(fileURLWithPath: directory, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL
    }

    /// Loads the project, or explains what to do when there is none.
    @MainActor
    func load() throws -> FlowProject {
        try validate()
        do {
            return try FlowProject(directory: url)
        } catch {
            // Name the file that failed: the manifest, or a rules or flow file that cannot be read.
            let file = error.file ?? FlowProject.manifestFileName
            let what = file == FlowProject.manifestFileName ? "the manifest (\(directory)/\(file))" : "\(directory)/\(file)"
            throw CommandFailure("\(error.description)\nFix \(what) and run again.")
        }
    }

    /// Checks that the project loads now (explaining what to fix when it does not) and returns its
    /// directory, for the commands that load it afresh on every save (`watch`, `serve`).
    @MainActor
    func loadableURL() throws -> URL {
        _ = try load()
        return url
    }

    /// Runs the flows of the project `load()` returned (those `filter` selects) with the CLI's
    /// routers, as `test`, `watch` and `graph` do.
    @MainActor
    static func runFlows(of project: FlowProject, filter: String?, strict: Bool = false) async -> FlowTestReport {
        let runner = FlowTestRunner<FlowRouteValue>(project: project, options: .init(failOnScriptErrors: strict))
        return await runner.run(filter: filter)
    }

    /// Throws unless the directory exists and is a flow project (routes.lua, rules/ or flows/).
    func validate() throws {
        let url = self.url
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure(
                "no flow project at \(directory)\(Self.nearProject(to: directory)) (\(url.path) is not a directory). Pass the "
                    + "project directory, as in `flowstack test Scripts`, or run from the directory that contains Scripts/.")
        }
        do {
            try FlowProject.requireProject(at: url)
        } catch {
            throw CommandFailure(
                "\(directory) is not a flow project: it has no routes.lua, rules/ or flows/. Pass the project "
                    + "directory (the one that contains them), as in `flowstack test Scripts`.")
        }
    }
}

extension ProjectArgument {
    /// ` (did you mean 'Scripts'?)` when a folder beside `path` (which is none) has a near name,
    /// else empty.
    static func nearFolder(to path: String) -> String {
        near(to: path, folders: true)
    }

    /// What a missing project directory `path` may have meant: a folder beside it with a near name
    /// (` (did you mean 'Scripts'?)`), or else the folder that would contain it when that one is a
    /// project itself (` (did you mean '.'? it has routes.lua, rules/ or flows/)`: `flowstack test`
    /// run inside the project, whose default `Scripts` is not there); else empty.
    static func nearProject(to path: String) -> String {
        let near = nearFolder(to: path)
        guard near.isEmpty else { return near }
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL
        guard (try? FlowProject.requireProject(at: url.deletingLastPathComponent())) != nil else { return "" }
        let above = (path as NSString).deletingLastPathComponent
        return " (did you mean '\(above.isEmpty ? "." : above)'? it has routes.lua, rules/ or flows/)"
    }

    /// ` (did you mean 'rules.key'?)` when a file beside `path` (which is none) has a near name,
    /// else empty.
    static func nearFile(to path: String) -> String {
        FileManager.default.fileExists(atPath: path) ? "" : near(to: path, folders: false)
    }

    private static func near(to path: String, folders wantsFolders: Bool) -> String {
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL
        guard let entries = try? FileManager.default.contentsOfDirectory(
            at: url.deletingLastPathComponent(), includingPropertiesForKeys: [.isDirectoryKey]) else { return "" }
        let folders = entries.filter { ((try? $0.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true) == wantsFolders }
            .map(\.lastPathComponent).sorted()
        let name = url.lastPathComponent
        guard let near = FlowSuggestion.closest(to: name, in: folders), near != name else { return "" }
        // The user's own spelling of the folders above it.
        let above = (path as NSString).deletingLastPathComponent
        return " (did you mean '\(above.isEmpty ? near : (above as NSString).appendingPathComponent(near))'?)"
    }
}

/// An error that ends a command with a message and exit code 1 (or the code given).
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    let code: Int32

    init(_ description: String, code: Int32 = 1) {
        self.description = description
        self.code = code
    }
}
