import FlowLua
import FlowScript
import FlowStackCore
import Foundation
import Logging

/// Runs the flow tests of a project (spec §5): every flow file in its own sandboxed Lua VM,
/// every `it` from a fresh router driven through the project's rules.
///
/// A project directory runs with the dynamic route type, as `flowstack test` runs it:
///
/// ```swift
/// let report = try await FlowTestRunner.run(project: URL(filePath: "Scripts"))
/// print(report.summary)                 // "91 passed, 0 failed"
/// ```
///
/// An app's Swift tests run its flows against its real route type and rules engine with
/// `run(flowsIn:rules:manifest:filter:options:)`; routes that flows name go through the route
/// type's `init(flowRoute:)`, so a flow that names a route the app cannot build fails. The
/// runner's instances (what the command-line tool streams results from) are `package` API.
///
/// Host functions the rules call are stubbed by the flows (`app.host`); the runner registers
/// them on the engine, replacing host functions of the same name.
@MainActor
public final class FlowTestRunner<Route: FlowRouteConvertible> {
    /// Settings of a run.
    public struct Options: Sendable {
        /// VM instructions one call into a flow (a test, a hook, a stub) may run.
        public var instructionBudget: Int
        /// Bytes one flow VM may hold.
        public var memoryBudget: Int
        /// The root of fresh routers when the manifest declares none (default: a route named `root`).
        public var defaultRoot: FlowRouteValue?
        /// The clock's value at the start of every test (virtual time for `app.wait`/`app.advance`).
        public var startDate: Date
        /// Whether to count which lines and functions of the rules ran (`FlowCoverage`); only
        /// for a runner that loads its own engine.
        public var coverage: Bool
        /// Whether a script error a rule raises during a test fails the test (`flowstack test
        /// --strict`); otherwise it is listed (`FlowTestResult.scriptErrors`) and the test's
        /// expectations decide.
        public var failOnScriptErrors: Bool

        /// Creates options.
        public init(
            instructionBudget: Int = 10_000_000, memoryBudget: Int = 64 << 20, defaultRoot: FlowRouteValue? = nil,
            startDate: Date = Date(timeIntervalSince1970: 1_767_225_600), coverage: Bool = false, failOnScriptErrors: Bool = false
        ) {
            self.coverage = coverage
            self.failOnScriptErrors = failOnScriptErrors
            self.instructionBudget = instructionBudget
            self.memoryBudget = memoryBudget
            self.defaultRoot = defaultRoot
            self.startDate = startDate
        }
    }

    /// The project whose flows run.
    package let project: FlowProject
    /// The rules engine, or `nil` when the rules did not load (then no test runs).
    package let engine: FlowRulesEngine<Route>?
    /// The settings.
    package let options: Options
    /// Called with each test's result as soon as it is known (for streaming reporters).
    package var onResult: (@MainActor (FlowTestResult) -> Void)?
    /// Called when the rules do not load (a flow file that does not load is reported as a
    /// failed result named "did not load").
    package var onLoadError: (@MainActor (FlowScriptError) -> Void)?

    /// The rules coverage being counted, when `options.coverage` is on.
    package private(set) var coverage: FlowCoverage?

    /// Errors of scripts that did not load before any flow ran (the rules).
    var setupErrors: [FlowScriptError] = []
    /// The router of the running test.
    var router: FlowRouter<Route, FlowDialogValue>?
    /// The VM of the running flow file.
    var vm: LuaVM?
    /// Host stubs of the running test, by host name (functions of `vm`).
    var stubs: [String: LuaFunctionRef] = [:]
    /// Host stubs the flow file set at its top level: every test starts with them.
    var fileStubs: [String: LuaFunctionRef] = [:]
    /// Host names registered on the engine as stubs.
    var stubbedHosts: Set<String> = []
    /// Virtual time of the running test.
    var clock: Date
    /// Lines printed during the running test.
    var output: [String] = []
    /// Navigation steps of the running test.
    var steps: [FlowNavigationStep] = []
    /// Script errors the rules raised in the running test (from the history's failed entries).
    var scriptErrors: [FlowTestFailure] = []
    /// The dialogs rules answered navigations of `router` with, by history sequence number.
    var dialogAnswers: [Int: String] = [:]
    /// History entries of `router` already turned into steps.
    var harvested = 0  // the sequence of the last history entry turned into a step
    /// History sequence numbers of entries recorded by async navigations.
    var asyncSequences: Set<Int> = []
    /// The expectation that failed last, until the error it raised is seen.
    var pendingExpectation: (
        message: String, expected: String?, actual: String?, location: String?, traceback: [String], diff: [String]
    )?
    /// The arguments of every host call of the running test, by host name (`app.calls`).
    var hostCalls: [String: [[FlowScriptValue?]]] = [:]
    /// The engine's rules, and their generation, before the running test called `app.reload`.
    var rulesBeforeReload: (sources: [FlowRulesSource], generation: Int)?
    /// The `describe` blocks whose `before_all` hooks ran, and their failure if they failed.
    var enteredBlocks: [Int: [FlowTestFailure]] = [:]
    /// What the rules files printed at their top level while the runner's engine loaded them
    /// (at most `historyLimit` lines; empty with an engine the caller built).
    package private(set) var rulesOutput: [String] = []
    /// The `app.reset` and `app.facts` calls each block's `before_all` hooks made, replayed at
    /// the start of the block's later tests (each starts from a fresh router).
    var blockSetups: [Int: [FlowSetupCall<Route>]] = [:]
    /// The calls of the `before_all` hooks running now; `nil` outside them.
    var recordingSetup: [FlowSetupCall<Route>]?
    /// The exposures the engine reported in the running test (`app.exposures()`).
    var exposures: [FlowExposure] = []

    /// Creates a runner for a project with its own engine, loaded from the project's rules.
    ///
    /// A rules load error does not throw: it is reported by `run()`, where no test runs.
    package init(project: FlowProject, options: Options = Options()) {
        self.project = project
        self.options = options
        self.clock = options.startDate
        let configuration = FlowRulesConfiguration(manifest: project.manifest, logger: FlowTestRunnerLog.silent)
        let coverage = options.coverage ? FlowCoverage(sources: project.rules) : nil
        // What the rules' top level prints while they load is kept for the report.
        let loading = FlowLoadOutput(limit: Self.historyLimit)
        do {
            // Counted from the load on: a helper the rules' top level calls (to register guards)
            // ran, and is not reported as a function no flow called.
            self.engine = try FlowRulesEngine<Route>(
                sources: project.rules, directory: nil, configuration: configuration, onPrint: { loading.record($0) },
                coverage: coverage?.counts)
        } catch {
            self.engine = nil
            self.setupErrors = [error]
        }
        if let coverage, let engine {
            self.coverage = coverage
            engine.countCoverage(into: coverage.counts)
        }
        rulesOutput = loading.lines
        engine?.onPrint = { [weak self] line in self?.recordOutput(line) }
        engine?.onExposure = { [weak self] exposure in self?.exposures.append(exposure) }
        registerScannedHosts()
    }

    /// Creates a runner for a project that uses an engine the caller built (an app's engine
    /// with its real route type, host functions and configuration).
    package init(project: FlowProject, engine: FlowRulesEngine<Route>, options: Options = Options()) {
        self.project = project
        self.options = options
        self.clock = options.startDate
        self.engine = engine
        let previous = engine.onPrint
        engine.onPrint = { [weak self] line in
            self?.recordOutput(line)
            previous?(line)
        }
        let previousExposure = engine.onExposure
        engine.onExposure = { [weak self] exposure in
            self?.exposures.append(exposure)
            previousExposure?(exposure)
        }
        registerScannedHosts()
    }

    /// Loads the project in `directory` and creates a runner with its own engine.
    ///
    /// - Throws: when the directory is missing or the manifest does not load.
    package convenience init(directory: URL, options: Options = Options()) throws(FlowScriptError) {
        self.init(project: try FlowProject(directory: directory), options: options)
    }

    /// The manifest in force, if the project has one.
    var manifest: FlowManifest? { project.manifest }

    /// Runs every test whose name (or file) contains `filter` (case-insensitive), or all.
    package func run(filter: String? = nil) async -> FlowTestReport {
        await run(selection: FlowTestSelection(filter: filter))
    }

    /// Runs the selected tests, in file order or shuffled by the selection's seed.
    package func run(selection: FlowTestSelection) async -> FlowTestReport {
        var report = FlowTestReport(loadErrors: setupErrors)
        report.directory = project.directory
        report.rulesLoadError = engine == nil ? setupErrors.first : nil
        report.rulesOutput = rulesOutput
        for error in setupErrors { onLoadError?(error) }
        var flows = project.flows
        if let seed = selection.seed { flows = FlowTestSelection.shuffled(flows, seed: seed, salt: "") }
        for flow in flows {
            let results = await runFile(flow, selection: selection, loadErrors: &report.loadErrors)
            report.results += results
        }
        report.diagnostics = engine?.diagnostics ?? []
        report.coverage = coverage?.files
        return report
    }

    /// Whether a test's name or file matches a filter.
    static func matches(_ filter: String?, file: String, path: [String]) -> Bool {
        FlowTestSelection(filter: filter).matchesFilter(file: file, path: path)
    }
}

/// The runner's logger: diagnostics are collected in the report, not logged.
/// The lines printed while the runner's engine loads, bounded like a test's output.
@MainActor
final class FlowLoadOutput {
    private let limit: Int
    private(set) var lines: [String] = []

    init(limit: Int) {
        self.limit = limit
    }

    func record(_ line: String) {
        if lines.count < limit {
            lines.append(line)
        } else if lines.count == limit {
            lines.append("... [the rules printed more than \(limit) lines while loading: the rest is dropped]")
        }
    }
}

enum FlowTestRunnerLog {
    static var silent: Logger {
        var logger = Logger(label: "FlowScript.flows", factory: { _ in SwiftLogNoOpLogHandler() })
        logger.logLevel = .critical
        return logger
    }
}
