import FlowStackCore
import FlowScript
import Foundation
import Logging

/// One `flowstack serve` session: on every save, loads the rules; a clean load is served
/// (and the flows run), a failed one is printed with `file:line` and the last good rules stay.
@MainActor
final class ServeSession {
    let directory: URL
    let hub: LiveRulesHub
    let terminal: Terminal
    let signingKey: FlowRuleBundleSigningKey?
    let flows: WatchSession
    private(set) var generation = 0
    private(set) var lastError: String?
    private var servedFiles: [String: Data] = [:]

    init(directory: URL, name: String, hub: LiveRulesHub, terminal: Terminal, signingKey: FlowRuleBundleSigningKey?) {
        self.directory = directory
        self.hub = hub
        self.terminal = terminal
        self.signingKey = signingKey
        flows = WatchSession(directory: directory, name: name, filter: nil, terminal: terminal)
    }

    /// Loads the project; serves it when it loads cleanly and differs, then runs the flows.
    func refresh() async {
        let time = Self.clockTime()
        let files: [String: Data]
        do {
            files = try loadCleanly()
        } catch {
            lastError = error.description
            let kept = generation > 0 ? "generation \(generation) is still served" : "nothing is served yet"
            terminal.line("[\(time)] " + terminal.red("did not load (\(kept)): ") + error.description)
            return
        }
        lastError = nil
        if files != servedFiles {
            do {
                try await publish(files)
                terminal.line("[\(time)] " + terminal.green("serving generation \(generation)") + " (\(files.count) files)")
            } catch {
                terminal.line("[\(time)] " + terminal.red("cannot build the bundle: ") + error.description)
                return
            }
        }
        await flows.runOnce()
    }

    /// The project's `routes.lua` and rules, after checking that they load into an engine.
    private func loadCleanly() throws(FlowScriptError) -> [String: Data] {
        let project = try FlowProject(directory: directory)
        var configuration = FlowRulesConfiguration(manifest: project.manifest)
        configuration.logger = Logger(label: "flowstack.serve", factory: { _ in SwiftLogNoOpLogHandler() })
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: project.rules, configuration: configuration)
        engine.close()
        var files: [String: Data] = [:]
        for source in project.rules { files[source.name] = Data(source.text.utf8) }
        let manifest = directory.appendingPathComponent(FlowProject.manifestFileName)
        if project.manifest != nil, let data = FileManager.default.contents(atPath: manifest.path) {
            files[FlowProject.manifestFileName] = data
        }
        return files
    }

    private func publish(_ files: [String: Data]) async throws(FlowRuleBundleError) {
        let next = generation + 1
        let archive = try FlowRuleBundleArchive.make(
            files: files, version: FlowRuleBundleVersion(components: [0, 0, next])!, minimumAppVersion: FlowRuleBundleVersion(components: [0])!,
            expires: Date().addingTimeInterval(30 * 86_400), signingKey: signingKey)
        generation = next
        servedFiles = files
        await hub.publish(LiveRulesHub.Snapshot(generation: next, etag: Self.etag(files), body: archive.encoded()))
    }

    /// A tag that depends on the files only, so a restarted server gives the same rules the same tag.
    static func etag(_ files: [String: Data]) -> String {
        var listing = Data()
        for path in files.keys.sorted() {
            listing.append(Data("\(path) \(FlowRuleBundle.sha256Hex(files[path] ?? Data()))\n".utf8))
        }
        return "\"\(FlowRuleBundle.sha256Hex(listing).prefix(32))\""
    }

    nonisolated static func clockTime() -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter.string(from: Date())
    }
}
