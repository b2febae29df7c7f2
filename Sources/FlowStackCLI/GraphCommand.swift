import ArgumentParser
import FlowLua
import FlowScript
import FlowStackCore
import FlowTesting
import Foundation

/// The output formats of `flowstack graph`.
enum GraphFormat: String, ExpressibleByArgument, CaseIterable {
    case mermaid, dot
}

/// `flowstack graph [DIR]`: the navigation graph the flows exercise.
struct GraphCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Draw the navigation graph observed while running the flows, or every reachable one (--explore).",
        discussion: """
            Runs the flows (like `flowstack test`, without printing them) and
            draws every route they reached as a node. Applied steps are solid
            edges labelled with their kind (push, sheet, fullScreenCover,
            setRoot, pop, dismiss, ...); steps a rule blocked or redirected are
            dashed red edges labelled with the kind and the rule's reason.
            Repeated steps are drawn once with a count (push ×3). Routes of the
            manifest that no flow reached are drawn dashed and grey.

            A navigation the rules answered with a dialog while the flows ran
            (a route's guard returned flow.redirect("dialog", id, reason),
            wherever in the guard: a loop, a helper function) is a dashed edge
            from the route to a dialog node (DOT: a note; Mermaid: a flag
            shape), labelled "dialog: reason". The rules decide it, as in the
            app: a dialog answer no flow provokes is not drawn.

            A project with tabs (routes.lua: tabs = { { name = ..., root = ... } })
            draws each tab as a cluster around its root and the routes the flows
            reached on its stack; tab switches are edges labelled selectTab.

            With --explore it runs no flow: it draws the whole reachable graph
            that `flowstack explore` walks (every operation on every route,
            under every combination of the facts, within the bounds --depth,
            --max-stack, --max-presented, --max-queued, --max-states, and with
            --fact-changes facts flipping between steps). Every distinct step is drawn once:
            applied ones solid, blocked and redirected ones dashed with their
            reasons, navigations answered with a dialog as edges to dialog nodes;
            routes no explored state reaches are dashed and grey.

            Examples:
              flowstack graph Scripts > navigation.mmd
              flowstack graph Scripts --format dot | dot -Tsvg > navigation.svg
              flowstack graph Scripts --filter paywall
              flowstack graph Scripts --explore --depth 2 --max-stack 1 --max-queued 0 \\
                  --format dot > reachable.dot
            """
    )

    @OptionGroup var project: ProjectArgument

    @Option(help: "mermaid (default) or dot.")
    var format: GraphFormat = .mermaid

    @OptionGroup var tests: TestFilterOption

    @Option(help: ArgumentHelp("Write the graph to FILE instead of standard output.", valueName: "FILE"))
    var output: String?

    @Flag(help: "Draw every reachable route and transition that exploration finds, not what the flows walked.")
    var explore = false

    @OptionGroup(title: "Exploration (with --explore)") var bounds: ExploreBounds

    @Flag(help: "With --explore: facts may also change between steps.")
    var factChanges = false

    @MainActor
    mutating func run() async throws {
        let project = try self.project.load()
        if explore {
            try await drawExplored(project)
            return
        }
        let report = await ProjectArgument.runFlows(of: project, filter: tests.pattern)
        for error in report.loadErrors {
            Terminal.error("warning: \(FlowTerminalText.line(error.description)) (the graph leaves it out)")
        }
        let graph = NavigationGraph(
            results: report.results, root: project.manifest?.root?.name,
            declared: project.manifest.map { Array($0.routes.keys) } ?? [],
            dialogAnswers: DialogAnswer.observed(in: report.results),
            tabs: project.manifest?.tabs.map { ($0.name, $0.root.name) } ?? [])
        let title = "flowstack graph \(self.project.directory): \(report.results.count) tests"
        let text = format == .mermaid ? graph.mermaid(title: title) : graph.dot(title: title)
        if let output {
            try writeFile(text, to: output)
        } else {
            Terminal.write(text)
        }
        if report.failedCount > 0 {
            Terminal.error("note: \(report.summary); run `flowstack test \(self.project.directory)` for details")
        }
    }

    /// `--explore`: the graph of every distinct step exploration tries.
    @MainActor
    private func drawExplored(_ project: FlowProject) async throws {
        if tests.pattern != nil { throw CommandFailure("--filter selects flows, and --explore runs none: leave one of them out") }
        var options = try bounds.options()
        options.factChanges = factChanges
        let explorer: FlowExplorer
        do {
            explorer = try FlowExplorer(project: project, options: options)
        } catch {
            Terminal.error("error: \(FlowTerminalText.line(error.description))")
            throw ExitCode(2)
        }
        explorer.recordsSteps = true
        let report = await explorer.run()
        let steps = explorer.observedSteps
        let graph = NavigationGraph(
            steps: steps, root: explorer.manifest.root?.name, declared: Array(explorer.manifest.routes.keys),
            dialogAnswers: DialogAnswer.observed(in: steps),
            tabs: explorer.manifest.tabs.map { ($0.name, $0.root.name) })
        let title = "flowstack graph \(self.project.directory) --explore: \(report.states) states, \(report.transitions) transitions, "
            + "\(report.factCombinations) fact combinations, \(report.complete ? "complete" : "incomplete within the bounds")"
        let text = format == .mermaid ? graph.mermaid(title: title) : graph.dot(title: title)
        if let output {
            try writeFile(text, to: output)
        } else {
            Terminal.write(text)
        }
        if !report.complete { Terminal.error("note: the exploration stopped at the bounds; raise --depth or --max-states to draw more") }
    }
}
