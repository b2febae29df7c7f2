import FlowLiveRulesServer
import FlowLua
import FlowRuleBundles
import FlowScript
import FlowStackCore
import FlowTesting
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

    /// Loads the project; serves it when it loads cleanly, differs, and an app would accept it;
    /// then runs the flows.
    func refresh() async {
        let time = Terminal.clockTime()
        let kept = generation > 0 ? "generation \(generation) is still served" : "nothing is served yet"
        let files: [String: Data]
        do {
            files = try loadCleanly()
        } catch {
            lastError = "\(error)"
            terminal.line("[\(time)] " + terminal.red("did not load (\(kept)): ") + FlowTerminalText.line("\(error)"))
            return
        }
        lastError = nil
        if files != servedFiles {
            do {
                try await publish(files)
                terminal.line("[\(time)] " + terminal.green("serving generation \(generation)") + " (\(files.count) files)")
            } catch {
                terminal.line("[\(time)] " + terminal.red("not served (\(kept)): ") + FlowTerminalText.line("\(error)"))
                return
            }
        }
        await flows.runOnce()
    }

    /// The files served: `routes.lua` and the rules under `rules/`, nothing else of the project
    /// (no generated types file), each read with the checks a bundle's files get (no link out
    /// of the project, regular files only, the per-file limit apps enforce), after checking that
    /// those very bytes load into an engine.
    private func loadCleanly() throws -> [String: Data] {
        let project = try FlowProject(directory: directory)
        var files: [String: Data] = [:]
        var sources: [FlowRulesSource] = []
        for source in project.rules {
            let data = try FlowRuleBundle.readProjectFile(source.name, in: directory)
            guard let text = String(data: data, encoding: .utf8) else {
                throw FlowScriptError(kind: .runtime, file: source.name, message: "cannot read the file as UTF-8 text")
            }
            files[source.name] = data
            sources.append(FlowRulesSource(name: source.name, text: text))
        }
        if project.manifest != nil {
            files[FlowProject.manifestFileName] = try FlowRuleBundle.readProjectFile(FlowProject.manifestFileName, in: directory)
        }
        var configuration = FlowRulesConfiguration(manifest: project.manifest)
        configuration.logger = Logger(label: "flowstack.serve", factory: { _ in SwiftLogNoOpLogHandler() })
        let engine = try FlowRulesEngine<FlowRouteValue>(sources: sources, configuration: configuration)
        engine.close()
        return files
    }

    private func publish(_ files: [String: Data]) async throws {
        generation = try await hub.publish(files: files, signingKey: signingKey)
        servedFiles = files
    }
}

/// A report from an app as the terminal shows it: one line, no terminal control, each field
/// cut to a bounded length.
enum ServeReportText {
    /// `[time] device: generation N loaded`, or `did not load, generation N stays: error`.
    static func line(device: String?, result: String?, generation: String?, error: String?, terminal: Terminal) -> String {
        let device = device.map { printable($0, limit: 80) } ?? "app"
        let generation = generation.map { printable($0, limit: 20) } ?? "?"
        let time = Terminal.clockTime()
        guard result != "loaded" else {
            return "[\(time)] " + terminal.green("\(device): generation \(generation) loaded")
        }
        let error = error.map { printable($0, limit: 2_000) } ?? "unknown error"
        return "[\(time)] " + terminal.red("\(device): did not load, generation \(generation) stays: ") + error
    }

    /// `text` on one line (`FlowTerminalText`: controls and line breaks shown escaped), cut to
    /// `limit` characters (then ending in `…`).
    static func printable(_ text: String, limit: Int) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > limit else { return FlowTerminalText.line(text) }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: scalars.prefix(limit))
        return FlowTerminalText.line(String(kept)) + "…"
    }
}
