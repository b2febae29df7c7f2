import FlowLua
import FlowStackCore
import Foundation
import Logging

/// The Lua rules engine: loads a rules directory into a sandboxed Lua 5.4 VM and decides every
/// navigation of the routers it is installed into.
///
/// ```swift
/// let engine = try FlowRulesEngine<AppRoute>(directory: rulesURL)
/// engine.setFact("isLoggedIn", true)
/// engine.registerAsyncHost("requestPhotoAccess") { _ in [.bool(await photos.requestAccess())] }
/// engine.install(into: router)
/// try engine.startWatching()      // hot reload on every save
/// ```
///
/// Decisions follow the Lua surface contract: after the router's Swift preconditions and guard,
/// the default preconditions registered with `flow.precondition` (skipped when the call site
/// gave a one-off condition), then the route guards of `flow.guard`; the first rule that blocks
/// or redirects decides. A failing rule blocks (or, with `.failOpen`, allows) with its
/// `file:line: message` as the reason.
@MainActor
public final class FlowRulesEngine<Route: FlowRouteConvertible> {
    /// The engine's configuration.
    public let configuration: FlowRulesConfiguration
    /// Where the rules come from, if a directory.
    public let directory: URL?
    /// The generation of the rules in force; increments on every successful load.
    public internal(set) var generation: Int {
        get { loadedGeneration }
        set { loadedGeneration = newValue }
    }
    /// `generation`'s storage, read by the router for every navigation it records. Unchecked:
    /// written only by a load, never while a decision runs (measured with the engine's other
    /// unchecked state: see `ruleSet`).
    @exclusivity(unchecked) var loadedGeneration = 0
    /// The error of the last failed load, or `nil` after a successful one.
    public internal(set) var lastLoadError: FlowScriptError?
    /// Warnings and fail-open errors seen so far (bounded; newest last).
    public private(set) var diagnostics: [FlowScriptDiagnostic] = []
    /// Called with every line a script prints.
    public var onPrint: (@MainActor (String) -> Void)?
    /// Called after every load attempt.
    public var onReload: (@MainActor (FlowReloadResult) -> Void)?
    /// Called after facts change (the SwiftUI layer refreshes styles from here).
    public var onFactsChange: (@MainActor () -> Void)?
    /// Called with the `file:line` of the rule that blocked, redirected or refused a request
    /// (`flowstack explore` and `diff` attribute decisions to rules with it).
    package var onDecidingRule: (@MainActor (String?) -> Void)?
    /// Called when a rule reads a declared fact the facts do not hold (`replaceFacts(exactly:)`),
    /// with its name: returns the value read (`nil`: none) or the error to raise. Exploration
    /// serves every fact it explores this way, so that it sees each read a decision makes. Called
    /// with `nil` when a rule iterates `facts`: returns every fact as a table (what `pairs` loops
    /// over; `nil`: the facts held) or the error to raise.
    package var onMissingFact: (@MainActor (String?) -> Result<FlowScriptValue?, FlowScriptError>)? {
        get { missingFacts.serve }
        set { missingFacts.serve = newValue }
    }
    /// `onMissingFact`'s storage, which the VMs' `facts` tables hold (not the engine: a weak
    /// reference to the engine would give it a side table, and every retain and release of the
    /// engine, several per decision, would take the runtime's slow path).
    let missingFacts = FlowMissingFacts()
    /// Called on every read of an experiment with no override, in place of the hash: returns the
    /// variant (`nil`: not enrolled) or the error to raise. Exploration serves each experiment
    /// this way, as it serves facts (`onMissingFact`); while it is set, no assignment and no
    /// audience answer is kept between reads.
    package var onExperimentRead: (@MainActor (String) -> Result<String?, FlowScriptError>)?
    /// Called the first time in this process a rule reads each (experiment, unit, variant): the
    /// app's analytics record the exposure. It runs during the rule's read: record, never
    /// navigate from it.
    public var onExposure: (@MainActor (FlowExposure) -> Void)?
    /// The unit, overrides, caches and exposures of experiments. Unchecked, like `ruleSet`:
    /// every navigation the router records asks it (`takeExperimentReads`), always on the main
    /// actor, and no access to it spans a call out (`onExposure` and `onExperimentRead` are
    /// called between accesses). Measured (callgrind, release bench, `experiment_push`, a guard
    /// reading an assignment): 8,668 instructions per operation with the access checks, 8,208
    /// without; `lua_push`, which reads none, is unchanged (11,380 and 11,394).
    @exclusivity(unchecked) var experimentState: FlowExperimentState
    /// The wall-clock time limit of one rule call (nil: none, only the instruction and memory
    /// budgets stop a rule: exploration, whose findings must not depend on the machine's speed).
    package var ruleTimeLimit: Duration? {
        get { ruleSet?.vm.timeLimit }
        set { ruleSet?.vm.timeLimit = newValue }
    }

    // Unchecked (this and `syncStacks`): read or written on every decision, always on the main
    // actor and never across a call out (a decision reads them before and after the Lua call,
    // which reaches them only through host functions that read, never write). Measured with the
    // rule set's `defaultsByKind` and `guardNames` and the router link's view: a Lua-guarded push
    // 1,205 -> 1,156 ns (flowstack-bench, paired runs, same build otherwise).
    @exclusivity(unchecked) var ruleSet: FlowRuleSet?
    package var sources: [FlowRulesSource]
    package var facts: [String: FlowScriptValue]
    package var hosts: [String: FlowHostFunction] = [:]
    /// How many calls rules made to host functions: a style resolution that made one is not kept.
    var hostCallCount = 0
    /// The styles resolved under the current rules and facts (`style(for:hook:)`).
    var styleCache = FlowStyleCache()
    /// The stacks of the synchronous decision running now (snapshot 0), or `nil`. Not retained:
    /// the request `decide` was handed holds them for the whole decision, and `decide` sets this
    /// back to `nil` before it returns (a retain and a release less per decision, callgrind).
    @exclusivity(unchecked) unowned(unsafe) var syncStacks: (any FlowRuleStacks)?
    /// The stacks of suspended async decisions, by snapshot number.
    var snapshots: [Int: any FlowRuleStacks] = [:]
    var nextSnapshot = 1
    var seenWarnings: Set<String> = []
    /// Rules files compiled by the last load, by name (see `FlowCompiledSource`).
    var compiledSources: [String: FlowCompiledSource] = [:]
    /// Where every rules VM counts coverage (`countCoverage(into:)`; nil: off).
    var coverageCounts: LuaCoverageCounts?
    var watcher: DirectoryWatcher?
    /// The live-rules connection of `connect(to:token:)` (DEBUG builds), cancelled when released.
    package var liveConnection: AnyObject?
    /// The signed bundle the rules in force came from (FlowRuleBundles' `FlowVerifiedBundle`),
    /// kept untyped: the engine does not know bundles, it loads the sources they hand it.
    package var loadedBundle: (any Sendable)?
    var routers: [WeakRouterBox] = []

    /// Loads every `*.lua` file below `directory` (lexical order) into a fresh VM.
    ///
    /// - Throws: the first load error, with `file:line`.
    public convenience init(directory: URL, configuration: FlowRulesConfiguration = FlowRulesConfiguration()) throws(FlowScriptError) {
        try self.init(sources: try FlowRulesSource.directory(directory), directory: directory, configuration: configuration)
    }

    /// Loads rules from sources in memory (tests, bundles).
    ///
    /// - Throws: the first load error, with `file:line`.
    public convenience init(sources: [FlowRulesSource], configuration: FlowRulesConfiguration = FlowRulesConfiguration()) throws(FlowScriptError) {
        try self.init(sources: sources, directory: nil, configuration: configuration)
    }

    /// Loads rules; `onPrint` is set before they load, so it hears what their top level prints,
    /// and `coverage` counts from the load on (a helper the top level calls to register guards
    /// counts as called).
    package init(
        sources: [FlowRulesSource], directory: URL?, configuration: FlowRulesConfiguration,
        onPrint: (@MainActor (String) -> Void)? = nil, coverage: LuaCoverageCounts? = nil
    ) throws(FlowScriptError) {
        self.onPrint = onPrint
        self.coverageCounts = coverage
        self.configuration = configuration
        self.directory = directory
        self.sources = sources
        self.facts = configuration.manifest?.facts ?? [:]
        experimentState = FlowExperimentState(manifest: configuration.manifest)
        let set = try buildRuleSet(from: sources, generation: 1)
        ruleSet = set
        generation = 1
    }

    /// Bytes the current rules VM holds.
    package var memoryInUse: Int { ruleSet?.vm.memoryInUse ?? 0 }

    /// The names of the rules files in force, in load order.
    package var sourceNames: [String] { sources.map(\.name) }

    /// Closes the VM, stops watching (and any live-rules connection) and releases the host functions (and what their closures
    /// captured); the engine then allows everything.
    package func close() {
        stopWatching()
        liveConnection = nil
        ruleSet?.retire()
        ruleSet = nil
        hosts.removeAll()
    }

    package func note(_ diagnostic: FlowScriptDiagnostic) {
        let diagnostic = diagnostic.message.utf8.count > FlowScriptText.limit
            ? FlowScriptDiagnostic(
                severity: diagnostic.severity, file: diagnostic.file, line: diagnostic.line,
                message: FlowScriptText.bounded(diagnostic.message))
            : diagnostic
        let key = diagnostic.description
        guard seenWarnings.insert(key).inserted else { return }
        if seenWarnings.count > 1_000 { seenWarnings.removeAll() }
        diagnostics.append(diagnostic)
        if diagnostics.count > 200 { diagnostics.removeFirst(diagnostics.count - 200) }
        switch diagnostic.severity {
        case .warning: configuration.logger.warning("\(diagnostic.description)")
        case .error: configuration.logger.error("\(diagnostic.description)")
        }
    }
}

/// Who serves the facts a rule reads and the facts do not hold (`FlowRulesEngine.onMissingFact`).
@MainActor
final class FlowMissingFacts {
    var serve: (@MainActor (String?) -> Result<FlowScriptValue?, FlowScriptError>)?
}

/// A router the engine is installed in, held weakly.
struct WeakRouterBox {
    package weak var router: AnyObject?
    /// Runs the facts rules for the changed facts (none for a reset), then retries what is held.
    let factsDidChange: @MainActor (Set<String>) -> Void
}
