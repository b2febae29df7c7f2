import ArgumentParser
import FlowLua
import FlowRuleBundles
import FlowScript
import FlowStackCore
import FlowTesting
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `flowstack diff OLD NEW`: what a change to the rules changes, decision by decision.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Explore two versions of the rules together and list every decision that differs.",
        discussion: """
            OLD and NEW are two projects (directories with rules/) or two rules
            directories over the same manifest: NEW's routes.lua (or its parent's),
            or --manifest. With --public-key they are two signed bundles instead
            (bundle directories from `flowstack bundle`, or the archives of
            `flowstack bundle --output`), verified as an app verifies them before
            loading: a bad signature, a changed or unlisted file, an expired bundle
            or one too new for --app-version is refused (exit 2), and only the
            verified rules are explored, over NEW's signed routes.lua (or
            --manifest). From every state either version reaches (within the
            bounds, under every fact combination, as in `flowstack explore`), every
            operation is decided by both; outcomes are compared (allowed, blocked
            with its reason, redirect target and kind, dialog answer). Rule
            locations (file:line) are left out of the comparison, so a refactor
            that changes no decision is reported as no change.

            Verdicts (unchanged, more-restrictive: only new refusals,
            more-permissive: only refusals removed, or changed) come per route, tab
            (selectTab), dialog (showDialog) and link (explore.urls): a change is
            charged to what its operation names, never to the screen it was made
            from, with the rule whose decision differs first in the chain. Facts
            are split when either version reads one, over one frontier as in
            `flowstack explore`; Ctrl-C or SIGTERM prints the changes so far.

            Exit status: 0 (or 1 with --fail-on and a matching change), 2 usage or
            load error.

            Both versions decide every operation: a diff takes about twice an
            exploration's time; build in release for large bounds
            (`swift build -c release`).

            Examples:
              flowstack diff rules-v1 Scripts --max-stack 1
              flowstack diff old/ new/ --format markdown > diff.md
              flowstack diff old/ new/ --fail-on more-permissive
              flowstack diff rules-1.4.0.flowbundle rules-1.4.1.flowbundle \\
                  --public-key rules.pub --app-version 2.0
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

    @Option(help: ArgumentHelp(
        "Read OLD and NEW as signed bundles and verify them with this public key (from `flowstack keygen`).",
        valueName: "FILE"), completion: .file())
    var publicKey: String?

    @Option(help: ArgumentHelp(
        "With --public-key: the app version the bundles are verified for (a bundle needing a newer app is refused).",
        valueName: "VERSION"))
    var appVersion: String?

    @OptionGroup var bounds: ExploreBounds

    @Option(help: "Output: pretty, markdown or json.")
    var format: Format = .pretty

    @Option(help: "Exit 1 when a change goes this way: more-restrictive, more-permissive, changed or any (repeatable).")
    var failOn: [FailOn] = []

    @Flag(help: "No progress line on stderr (for CI).")
    var quiet = false

    @MainActor
    mutating func run() async throws {
        let options = try bounds.options()
        let report: FlowDiffReport
        do {
            let oldRules: [FlowRulesSource], newRules: [FlowRulesSource], manifest: FlowManifest, directory: URL
            if let publicKey {
                let verifier = try Self.verifier(publicKey: publicKey, appVersion: appVersion)
                let oldBundle = try Self.verifiedRules(old, verifier: verifier, side: "OLD")
                let newBundle = try Self.verifiedRules(new, verifier: verifier, side: "NEW")
                oldRules = oldBundle.rules
                newRules = newBundle.rules
                if let path = self.manifest {
                    manifest = try FlowManifest.load(contentsOf: Self.url(path), displayName: path)
                } else if let signed = newBundle.manifest {
                    manifest = try FlowManifest.parse(source: signed.text, displayName: "\(new)/\(signed.name)")
                } else {
                    throw CommandFailure("the bundle \(new) has no routes.lua: pass the manifest with --manifest routes.lua")
                }
                directory = Self.url(self.manifest ?? new).deletingLastPathComponent()
            } else {
                if appVersion != nil { throw CommandFailure("--app-version verifies signed bundles: pass --public-key too") }
                let manifestURL = try manifestURL()
                manifest = try FlowManifest.load(contentsOf: manifestURL, displayName: self.manifest ?? FlowProject.manifestFileName)
                oldRules = try Self.rules(old)
                newRules = try Self.rules(new)
                directory = manifestURL.deletingLastPathComponent()
            }
            let project = FlowProject(directory: directory, manifest: manifest, rules: [], flows: [])
            let diff = try FlowRulesDiff(project: project, old: oldRules, new: newRules, options: options)
            let progress = !quiet && isatty(STDERR_FILENO) != 0
            if progress { diff.onProgress = { ExploreCommand.showProgress($0) } }
            // Ctrl-C or SIGTERM: the changes so far, "interrupted at depth k" (a second one ends it).
            let signals = StopSignals(exits: false) { diff.interrupt() }
            report = await diff.run()
            signals.cancel()
            if progress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
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
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: base.path, isDirectory: &isDirectory) || !isDirectory.boolValue {
            throw CommandFailure(
                "\(new) is not a directory\(ProjectArgument.nearFolder(to: new)): pass a project (with rules/) or a rules directory")
        }
        throw CommandFailure("no routes.lua in \(new) nor its parent: pass the manifest with --manifest routes.lua")
    }

    static func url(_ path: String) -> URL {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
    }

    /// The verifier of `--public-key` and `--app-version` (without a version, any minimum app
    /// version is accepted: the bundles are compared, not installed).
    static func verifier(publicKey: String, appVersion: String?) throws -> FlowRuleBundleVerifier {
        let near = ProjectArgument.nearFile(to: publicKey)
        if !near.isEmpty {
            throw CommandFailure("no key file at \(publicKey)\(near): pass the public key file `flowstack keygen --public-key FILE` wrote")
        }
        do {
            let key = try FlowRuleBundlePublicKey(contentsOf: url(publicKey))
            let version = try appVersion.map { try FlowRuleBundleVersion(parsing: $0, field: "--app-version") }
                ?? FlowRuleBundleVersion(components: [Int(Int32.max)])!
            return FlowRuleBundleVerifier(publicKey: key, appVersion: version)
        } catch {
            throw CommandFailure("--public-key \(publicKey): \(error)")
        }
    }

    /// The verified rules of the bundle at `path`; a refused bundle is a clear error naming the side.
    static func verifiedRules(_ path: String, verifier: FlowRuleBundleVerifier, side: String) throws -> FlowVerifiedRules {
        guard FileManager.default.fileExists(atPath: url(path).path) else {
            let near = ProjectArgument.nearFile(to: path) + ProjectArgument.nearFolder(to: path)
            throw CommandFailure("\(side) \(path) does not exist\(near): pass a signed bundle directory or a bundle archive")
        }
        do {
            return try FlowVerifiedRules(bundleAt: url(path), verifier: verifier)
        } catch let error as FlowRuleBundleError {
            throw CommandFailure("\(side) \(path): \(error.description)")
        } catch let error as FlowScriptError {
            throw error
        } catch {
            throw CommandFailure("\(side) \(path) cannot be read: \(error.localizedDescription)")
        }
    }

    /// The rules of a project (its rules/) or of a rules directory.
    static func rules(_ path: String) throws -> [FlowRulesSource] {
        let base = url(path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: base.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure(
                "\(path) is not a directory\(ProjectArgument.nearFolder(to: path)): pass a project (with rules/) or a rules directory")
        }
        let rules = base.appendingPathComponent(FlowProject.rulesDirectoryName)
        return try FlowRulesSource.directory(FileManager.default.fileExists(atPath: rules.path) ? rules : base)
    }

    /// Every verdict, section by section (routes, tabs, dialogs, links), names sorted.
    static func verdictLines(_ report: FlowDiffReport) -> [(section: String, name: String, verdict: FlowDiffReport.Verdict)] {
        FlowDiffReport.sections.flatMap { section in
            let verdicts = report.verdicts(section)
            return verdicts.keys.sorted().map { (section, $0, verdicts[$0]!) }
        }
    }

    /// A section's name for one subject: `route`, `tab`, `dialog`, `link`.
    static func singular(_ section: String) -> String {
        String(section.dropLast())
    }

    /// How far the comparison got, as the summary says it.
    static func extent(_ report: FlowDiffReport) -> String {
        if let depth = report.interruptedAtDepth { return "interrupted at depth \(depth), complete to depth \(report.completeDepth)" }
        return report.complete ? "complete" : "complete to depth \(report.completeDepth): raise the bounds to go further"
    }

    static func factText(_ change: FlowDiffChange) -> String {
        let pattern = change.factPattern
        guard !pattern.isEmpty else { return "any facts" }
        return pattern.keys.sorted().map { "\($0) ∈ {\(pattern[$0]!.map(\.luaSource).joined(separator: ", "))}" }.joined(separator: ", ")
    }

    /// The report for a terminal.
    static func pretty(_ report: FlowDiffReport, terminal: Terminal) -> String {
        var lines: [String] = []
        let shown = FlowTerminalText.line
        for (section, name, verdict) in verdictLines(report) where verdict != .unchanged {
            lines.append(terminal.bold("\(singular(section)) \(shown(name)): \(verdict.rawValue)"))
            for change in report.changes where change.subject == (section, name) {
                lines.append("  \(change.direction.rawValue)  \(shown(change.operation))\(change.location.map { "  (\(shown($0)))" } ?? "")")
                lines.append("    before: \(shown(change.before))")
                lines.append("    after:  \(shown(change.after))")
                lines.append("    when:   \(shown(factText(change)))")
                lines.append("    trace:  \(shown(change.trace.joined(separator: " → ")))")
            }
        }
        let changed = verdictLines(report).filter { $0.verdict != .unchanged }.count
        let summary = "compared \(report.decisions) decisions (\(extent(report))): "
            + (report.isUnchanged ? "no change" : "\(changed) subject\(changed == 1 ? "" : "s") changed, \(report.changes.count) change\(report.changes.count == 1 ? "" : "s")")
        lines.append(report.isUnchanged ? terminal.green(summary) : summary)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report as a pull-request comment.
    static func markdown(_ report: FlowDiffReport) -> String {
        var lines = ["## Navigation rules diff", ""]
        if report.isUnchanged {
            lines.append("No decision changed (\(report.decisions) decisions compared, \(extent(report))).")
            return lines.joined(separator: "\n") + "\n"
        }
        lines += ["| subject | verdict |", "|---|---|"]
        for (section, name, verdict) in verdictLines(report) where verdict != .unchanged {
            lines.append("| \(singular(section)) \(FlowMarkdownText.code(name)) | \(verdict.rawValue) |")
        }
        lines += ["", "| subject | operation | before | after | when | rule | trace |", "|---|---|---|---|---|---|---|"]
        let cell = FlowMarkdownText.text
        for change in report.changes {
            lines.append("| \(singular(change.subject.section)) \(FlowMarkdownText.code(change.subject.name)) | \(cell(change.operation)) | \(cell(change.before)) | \(cell(change.after)) | "
                + "\(cell(factText(change))) | \(change.location.map(FlowMarkdownText.code) ?? "") | \(cell(change.trace.joined(separator: " → "))) |")
        }
        lines += ["", "\(report.decisions) decisions compared (\(extent(report)))."]
        return lines.joined(separator: "\n") + "\n"
    }
}
