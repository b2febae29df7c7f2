import FlowLua
import FlowScript
import FlowStackCore
import Foundation

/// A flow project on disk: `routes.lua` (an optional manifest), `rules/*.lua` and `flows/*.lua`.
///
/// ```swift
/// let project = try FlowProject(directory: URL(filePath: "Scripts"))
/// let report = await FlowTestRunner<FlowRouteValue>(project: project).run()
/// ```
///
/// Loading reads the files and parses the manifest; it does not run rules or flows. A missing
/// `rules/` directory means no rules; a missing `flows/` directory means no flows.
package struct FlowProject: Sendable {
    /// The project directory.
    package let directory: URL
    /// The manifest, when `routes.lua` exists.
    package let manifest: FlowManifest?
    /// The rules files, named `rules/<relative path>`, in load order.
    package let rules: [FlowRulesSource]
    /// The flow files, named `flows/<relative path>`, in lexical order.
    package let flows: [FlowRulesSource]

    /// The manifest's file name inside a project.
    package static let manifestFileName = "routes.lua"
    /// The rules directory's name inside a project.
    package static let rulesDirectoryName = "rules"
    /// The flows directory's name inside a project.
    package static let flowsDirectoryName = "flows"

    /// Loads a project directory.
    ///
    /// - Throws: `FlowScriptError` with the file (and line) when the directory does not exist,
    ///   a file cannot be read, or the manifest does not load.
    @MainActor
    package init(directory: URL) throws(FlowScriptError) {
        let base = directory.standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: base.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FlowScriptError(
                kind: .runtime, file: base.path,
                message: "no flow project here: create the directory with routes.lua, rules/ and flows/, or pass the right path")
        }
        let manifestURL = base.appendingPathComponent(Self.manifestFileName)
        let manifest: FlowManifest?
        if FileManager.default.fileExists(atPath: manifestURL.path) {
            manifest = try FlowManifest.load(contentsOf: manifestURL, displayName: Self.manifestFileName)
        } else {
            manifest = nil
        }
        self.init(
            directory: base, manifest: manifest,
            rules: try Self.sources(in: base.appendingPathComponent(Self.rulesDirectoryName)),
            flows: try Self.sources(in: base.appendingPathComponent(Self.flowsDirectoryName)))
    }

    /// Creates a project from parts already loaded (apps' Swift tests, sources in memory).
    package init(directory: URL, manifest: FlowManifest?, rules: [FlowRulesSource], flows: [FlowRulesSource]) {
        self.directory = directory
        self.manifest = manifest
        self.rules = rules
        self.flows = flows
    }

    /// The file a source name refers to (`flows/auth.lua` → `<directory>/flows/auth.lua`).
    package func url(ofSource name: String) -> URL {
        directory.appendingPathComponent(name)
    }

    /// The `*.lua` files below `directory`, or none when it does not exist.
    static func sources(in directory: URL) throws(FlowScriptError) -> [FlowRulesSource] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return []
        }
        return try FlowRulesSource.directory(directory)
    }
}

extension FlowProject {
    /// Throws unless `directory` looks like a flow project: it has `routes.lua`, `rules/` or
    /// `flows/`.
    package static func requireProject(at directory: URL) throws(FlowScriptError) {
        let names = [manifestFileName, rulesDirectoryName, flowsDirectoryName]
        let found = names.contains { FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
        guard !found else { return }
        throw FlowScriptError(
            kind: .runtime, file: directory.path,
            message: "not a flow project: it has no routes.lua, rules/ or flows/. Pass the project directory "
                + "(the one that contains them), as in `flowstack check Scripts`")
    }
}
