import ArgumentParser
import FlowLua
import FlowScript
import FlowStackCore
import FlowTesting
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `flowstack explore [DIR]`: every operation on every route under every fact combination,
/// breadth-first from the root, and what the rules do wrong on any path.
struct ExploreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Explore every navigation under every combination of facts and report what the rules do wrong.",
        discussion: """
            Breadth-first from the manifest's root, tries every operation (push,
            pushMany, sheet, fullScreenCover, setRoot, replaceCurrent, popTo, pop,
            popToRoot, dismiss, dismissAll, the back swipe and swipe-down where the
            styles allow them, showDialog of every dialog, hideDialog, selectTab of
            every tab, and router.open of the manifest's explore.urls) on every
            declared route (only the operations a route declares with
            opens = { "sheet" }), under every combination of the facts: booleans
            both ways, other facts their default or the values explore.facts lists;
            host functions answer with each value explore.hostAnswers lists.

            Facts start unset and a branch is split only when a rule, a style or an
            invariant reads a fact (or calls a host): combinations no rule tells apart
            are explored once, and the report counts the assignments explored. What an
            operation does on some screens is kept with the fact values its rules read,
            and not run again where they are the same. Every
            (facts, state) pair is one frontier: a run cut by --max-states, or
            interrupted with Ctrl-C or SIGTERM (findings so far, "interrupted at
            depth k"), has explored every combination to the same depth, and says
            "complete" or "complete to depth k". Rules run without a time limit:
            only the instruction and memory budgets decide findings, and the JSON
            is byte-identical from run to run. Facts are fixed within one branch;
            with --fact-changes they may also change between steps, as an app sets
            them (a sign-out while a private screen is shown): such a step shows in
            traces as `set isLoggedIn false`, and emitted flows replay it with
            app.facts{ isLoggedIn = false }.

            Findings, each with facts and the shortest trace from the root:
              unreachable      a route no explored state shows, under any facts
              rule-error       a rule that raises or breaks a budget (file:line)
              redirect-loop    redirects that never settle
              trap             a state with no allowed way back to the root
              invariant        a property of explore/*.lua a state breaks
                               (invariant("name", function(s) return ... end))
              dead-rule        a guard, precondition or dialog guard that never
                               blocked, redirected or refused anything
              unanswered-host  a host function with no listed answers
            On an incomplete run, unreachable and dead-rule say "within k steps".

            Exit status: 0 nothing found, 1 findings, 2 usage or load error.

            The defaults explore every state two steps from the root. Each bound
            multiplies the states: every route sequence up to --max-stack per stack,
            every dialog and queued dialog, every fact assignment the rules tell
            apart. A terminal shows a progress line on stderr (--quiet: none).

            Examples:
              flowstack explore .
              flowstack explore Scripts --depth 6 --max-stack 1     (complete)
              flowstack explore Scripts --depth 3 --format json
              flowstack explore Tests/Fixtures/explore-shop --emit-flows /tmp/explore-flows
              flowstack explore Scripts --fact-changes --max-stack 1
            """
    )

    /// Output formats.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case pretty, json
    }

    @Argument(help: "The flow project: a directory with routes.lua and rules/ (explore/*.lua: invariants).", completion: .directory)
    var directory: String = "Scripts"

    @OptionGroup var bounds: ExploreBounds

    @Flag(help: "Also explore facts changing between steps (a trace then shows `set isLoggedIn false`).")
    var factChanges = false

    @Option(help: "Output: pretty or json.")
    var format: Format = .pretty

    @Option(help: "Write one flow test per finding into this directory (they fail until the rules are fixed).")
    var emitFlows: String?

    @Flag(help: "No progress line and no timing on stderr (for CI).")
    var quiet = false

    @MainActor
    mutating func run() async throws {
        var options = try bounds.options()
        options.factChanges = factChanges
        let explorer: FlowExplorer
        // Not the shared ProjectArgument: its checks exit 1, and a usage or load error exits 2 here.
        let url = URL(fileURLWithPath: directory, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            Terminal.error("error: no flow project at \(directory)\(ProjectArgument.nearProject(to: directory)) (\(url.path) is not a "
                + "directory): pass the project directory, as in `flowstack explore Scripts`")
            throw ExitCode(2)
        }
        do {
            try FlowProject.requireProject(at: url)
            let loaded = try FlowProject(directory: url)
            explorer = try FlowExplorer(project: loaded, options: options)
        } catch {
            Terminal.error("error: \(FlowTerminalText.line(error.description))")
            throw ExitCode(2)
        }
        let progress = !quiet && isatty(STDERR_FILENO) != 0
        if progress { explorer.onProgress = { Self.showProgress($0) } }
        // Ctrl-C or SIGTERM: the findings so far, "interrupted at depth k" (a second one ends it).
        let signals = StopSignals(exits: false) { explorer.interrupt() }
        let report = await explorer.run()
        signals.cancel()
        if progress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        switch format {
        case .json: Terminal.write(report.json() + "\n")
        case .pretty: Terminal.write(Self.pretty(report, terminal: .standardOutput))
        }
        if !quiet { Terminal.error(String(format: "explored in %.2f s", report.seconds)) }
        if let emitFlows {
            // A tabbed app declares tabs instead of a root: its first tab's root, on that tab.
            let manifest = explorer.manifest
            guard let root = manifest.root ?? manifest.tabs.first?.root else {
                Terminal.error("error: --emit-flows: routes.lua declares neither root nor tabs: flows cannot start anywhere")
                throw ExitCode(2)
            }
            let flows = FlowExploreFlowWriter.flows(
                for: report.findings, root: root, tab: manifest.root == nil ? manifest.tabs.first?.name : nil,
                invariantSources: FlowExploreFlowWriter.invariantSources(of: explorer.project))
            do {
                for flow in flows {
                    try writeFile(flow.text, to: emitFlows + "/" + flow.name, option: "--emit-flows (a folder)")
                }
            } catch let failure as CommandFailure {
                // A usage error (2), not findings (1).
                Terminal.error("error: \(failure.description)")
                throw ExitCode(2)
            }
            if !quiet { Terminal.error("wrote \(flows.count) flow\(flows.count == 1 ? "" : "s") to \(emitFlows)") }
        }
        if !report.findings.isEmpty { throw ExitCode(1) }
    }

    /// Rewrites the progress line on stderr (a terminal): depth, states, operations a second,
    /// fact assignments, elapsed time.
    static func showProgress(_ progress: FlowExplorer.Progress) {
        let line = String(
            format: "\r\u{1B}[Kdepth %d, %d states, %.0f transitions/s, %d fact assignments, %.1f s",
            progress.depth, progress.states, progress.transitionsPerSecond, progress.assignments, progress.elapsed)
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// How far a run got: "complete", "complete to depth 3", "interrupted at depth 4 (complete
    /// to depth 3)".
    static func extent(complete: Bool, completeDepth: Int, interruptedAtDepth: Int?) -> String {
        if let depth = interruptedAtDepth { return "interrupted at depth \(depth) (complete to depth \(completeDepth))" }
        return complete ? "complete" : "complete to depth \(completeDepth) (raise the bounds to go further)"
    }

    /// The report for a terminal.
    static func pretty(_ report: FlowExploreReport, terminal: Terminal) -> String {
        let shown = FlowTerminalText.line
        var lines: [String] = []
        for finding in report.findings {
            let head = [finding.kind.rawValue, finding.location, finding.route.map { "route \($0)" }].compactMap { $0 }
            lines.append(terminal.red(shown(head.joined(separator: "  "))) + ": " + shown(finding.message))
            if !finding.facts.isEmpty {
                lines.append("  facts: " + shown(finding.facts.keys.sorted().map { "\($0) = \(finding.facts[$0]!.luaSource)" }.joined(separator: ", ")))
            }
            if !finding.trace.isEmpty { lines.append("  trace: " + shown(finding.trace.joined(separator: " → "))) }
        }
        if !report.someFactsOnly.isEmpty {
            lines.append(terminal.bold("routes shown only under some facts\(report.complete ? "" : " (within depth \(report.completeDepth))"):"))
            for route in report.someFactsOnly.keys.sorted() {
                let facts = report.someFactsOnly[route]!
                let text = facts.keys.sorted().map { name in
                    "\(name) ∈ {\(facts[name]!.map(\.luaSource).joined(separator: ", "))}"
                }.joined(separator: ", ")
                lines.append("  \(shown(route)): \(shown(text))")
            }
        }

        let count = report.findings.count
        let summary = "explored \(report.states) states, \(report.transitions) transitions, \(report.assignments) fact "
            + "assignment\(report.assignments == 1 ? "" : "s") of \(report.factCombinations) combination\(report.factCombinations == 1 ? "" : "s"), "
            + "diameter \(report.diameter): "
            + extent(complete: report.complete, completeDepth: report.completeDepth, interruptedAtDepth: report.interruptedAtDepth)
            + "; \(count) finding\(count == 1 ? "" : "s")"
        lines.append(count == 0 ? terminal.green(summary) : summary)
        return lines.joined(separator: "\n") + "\n"
    }
}
