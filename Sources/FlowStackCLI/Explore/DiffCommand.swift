import ArgumentParser
import FlowLua
import FlowScript
import FlowStackCore
import FlowTesting
import Foundation

/// `flowstack diff OLD NEW`: what a change to the rules changes, decision by decision.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Explore two versions of the rules together and list every decision that differs.",
        discussion: """
            OLD and NEW are two projects (directories with rules/) or two rules
            directories over the same manifest: NEW's routes.lua (or its parent's),
            or --manifest. From every state either version reaches (within the
            bounds, under every fact combination, as in `flowstack explore`), every
            operation is decided by both; outcomes are compared (allowed, blocked
            with its reason, redirect target and kind, dialog answer). Rule
            locations (file:line) are left out of the comparison, so a refactor
            that changes no decision is reported as no change.

            Each route gets a verdict: unchanged, more-restrictive (only new
            refusals), more-permissive (only refusals removed) or changed.

            Exit status: 0 (or 1 with --fail-on and a matching change), 2 usage or
            load error.

            Examples:
              flowstack diff rules-v1 Scripts
              flowstack diff old/ new/ --format markdown > diff.md
              flowstack diff old/ new/ --fail-on more-permissive
            """
    )

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case pretty, markdown, json
    }

    /// Directions `--fail-on` accepts.
    enum FailOn: String, ExpressibleByArgument, CaseIterable {
        case moreRestrictive = "more-restrictive", morePermissive = "more-permissive", changed, any
    }

    @Argument(help: "The old rules: a project or a rules directory.", completion: .directory)
    var old: String

    @Argument(help: "The new rules: a project or a rules directory.", completion: .directory)
    var new: String

    @Option(help: "The manifest (routes.lua) both are explored with.", completion: .file())
    var manifest: String?

    @OptionGroup var bounds: ExploreBounds

    @Option(help: "Output: pretty, markdown or json.")
    var format: Format = .pretty

    @Option(help: "Exit 1 when a change goes this way: more-restrictive, more-permissive, changed or any (repeatable).")
    var failOn: [FailOn] = []

    @MainActor
    mutating func run() async throws {
        let options = try bounds.options()
        let report: FlowDiffReport
        do {
            let manifestURL = try manifestURL()
            let manifest = try FlowManifest.load(contentsOf: manifestURL, displayName: FlowProject.manifestFileName)
            let project = FlowProject(
                directory: manifestURL.deletingLastPathComponent(), manifest: manifest, rules: [], flows: [])
            let diff = try FlowRulesDiff(
                project: project, old: try Self.rules(old), new: try Self.rules(new),
                options: options)
            report = await diff.run()
        } catch let error as FlowScriptError {
            Terminal.error("error: \(error.description)")
            throw ExitCode(2)
        } catch let failure as CommandFailure {
            Terminal.error("error: \(failure.description)")
            throw ExitCode(2)
        }
        switch format {
        case .json: Terminal.write(report.json() + "\n")
        case .markdown: Terminal.write(Self.markdown(report))
        case .pretty: Terminal.write(Self.pretty(report, terminal: .standardOutput))
        }
        let failing = report.changes.contains { change in
            failOn.contains { $0 == .any || $0.rawValue == change.direction.rawValue }
        }
        if failing { throw ExitCode(1) }
    }

    /// The manifest: `--manifest`, NEW's routes.lua, or its parent's.
    func manifestURL() throws -> URL {
        if let manifest { return Self.url(manifest) }
        let base = Self.url(new)
        for candidate in [base.appendingPathComponent("routes.lua"), base.deletingLastPathComponent().appendingPathComponent("routes.lua")]
        where FileManager.default.fileExists(atPath: candidate.path) {
            return candidate
        }
        throw CommandFailure("no routes.lua in \(new) nor its parent: pass the manifest with --manifest routes.lua")
    }

    static func url(_ path: String) -> URL {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
    }

    /// The rules of a project (its rules/) or of a rules directory.
    static func rules(_ path: String) throws -> [FlowRulesSource] {
        let base = url(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: base.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure("\(path) is not a directory: pass a project (with rules/) or a rules directory")
        }
        let rules = base.appendingPathComponent(FlowProject.rulesDirectoryName)
        return try FlowRulesSource.directory(FileManager.default.fileExists(atPath: rules.path) ? rules : base)
    }

    static func verdictLines(_ report: FlowDiffReport) -> [(String, FlowDiffReport.Verdict)] {
        report.routes.keys.sorted().map { ($0, report.routes[$0]!) }
    }

    static func factText(_ change: FlowDiffChange) -> String {
        let pattern = change.factPattern
        guard !pattern.isEmpty else { return "any facts" }
        return pattern.keys.sorted().map { "\($0) ∈ {\(pattern[$0]!.map(\.luaSource).joined(separator: ", "))}" }.joined(separator: ", ")
    }

    /// The report for a terminal.
    static func pretty(_ report: FlowDiffReport, terminal: Terminal) -> String {
        var lines: [String] = []
        for (route, verdict) in verdictLines(report) where verdict != .unchanged {
            lines.append(terminal.bold("\(route): \(verdict.rawValue)"))
            for change in report.changes where change.route == route {
                lines.append("  \(change.direction.rawValue)  \(change.operation)\(change.location.map { "  (\($0))" } ?? "")")
                lines.append("    before: \(change.before)")
                lines.append("    after:  \(change.after)")
                lines.append("    when:   \(factText(change))")
                lines.append("    trace:  \(change.trace.joined(separator: " → "))")
            }
        }
        let changed = report.routes.values.filter { $0 != .unchanged }.count
        let summary = "compared \(report.decisions) decisions\(report.complete ? "" : " (incomplete: raise the bounds)"): "
            + (report.isUnchanged ? "no change" : "\(changed) route\(changed == 1 ? "" : "s") changed, \(report.changes.count) change\(report.changes.count == 1 ? "" : "s")")
        lines.append(report.isUnchanged ? terminal.green(summary) : summary)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as a pull-request comment.
    static func markdown(_ report: FlowDiffReport) -> String {
        var lines = ["## Navigation rules diff", ""]
        if report.isUnchanged {
            lines.append("No decision changed (\(report.decisions) decisions compared\(report.complete ? "" : ", incomplete within the bounds")).")
            return lines.joined(separator: "\n") + "\n"
        }
        lines += ["| route | verdict |", "|---|---|"]
        for (route, verdict) in verdictLines(report) where verdict != .unchanged {
            lines.append("| `\(route)` | \(verdict.rawValue) |")
        }
        lines += ["", "| route | operation | before | after | when | rule | trace |", "|---|---|---|---|---|---|---|"]
        func cell(_ text: String) -> String { text.replacingOccurrences(of: "|", with: "\\|") }
        for change in report.changes {
            lines.append("| `\(change.route)` | \(cell(change.operation)) | \(cell(change.before)) | \(cell(change.after)) | "
                + "\(cell(factText(change))) | \(change.location.map { "`\($0)`" } ?? "") | \(cell(change.trace.joined(separator: " → "))) |")
        }
        lines += ["", "\(report.decisions) decisions compared\(report.complete ? "" : " (incomplete within the bounds)")."]
        return lines.joined(separator: "\n") + "\n"
    }
}
