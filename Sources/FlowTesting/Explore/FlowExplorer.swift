import FlowLua
import FlowScript
import FlowStackCore
import Foundation

/// Explores a rules project: breadth-first from the manifest's root over every operation the
/// router offers, under every combination of the manifest's facts (and listed host answers),
/// and reports what the rules do wrong on any path (`flowstack explore`).
///
/// Facts start unset: a branch is split into one per value only when a rule, a style or an
/// invariant reads a fact (or calls a host), so combinations no rule tells apart are explored
/// once. Every (facts, state) pair is one frontier, explored depth by depth: a run cut by a
/// bound has explored every combination to the same depth.
///
/// ```swift
/// let explorer = try FlowExplorer(project: try FlowProject(directory: URL(filePath: "Scripts")))
/// let report = await explorer.run()
/// print(report.json())
/// ```
///
/// One rules VM serves the whole exploration: facts are set per branch and router states are
/// restored by value; states are told apart by their routes, presentations and
/// dialogs (never by screen identities), so memory grows with distinct states only.
@MainActor
package final class FlowExplorer {
    /// The bounds of an exploration.
    package struct Options: Sendable {
        /// Steps from the root.
        package var depth: Int
        /// Screens per stack (its root included).
        package var maxStack: Int
        /// Presented stacks at once.
        package var maxPresented: Int
        /// Dialogs waiting behind the visible one (the queue a `queue` policy fills).
        package var maxQueued: Int
        /// Distinct (facts, state) pairs, those split on a fact read included: once reached, no
        /// new state is added (the depth being explored is finished).
        package var maxStates: Int
        /// Whether facts may also change between steps (a fact change is a step, `set isLoggedIn
        /// false`); without it, facts are fixed within one exploration branch.
        package var factChanges: Bool

        /// Creates bounds (the defaults: every state two steps from the root, under every fact
        /// combination, in seconds on a 12-route app in a debug build).
        package init(
            depth: Int = 2, maxStack: Int = 2, maxPresented: Int = 1, maxQueued: Int = 0, maxStates: Int = 50_000,
            factChanges: Bool = false
        ) {
            self.depth = depth
            self.maxStack = maxStack
            self.maxPresented = maxPresented
            self.maxQueued = maxQueued
            self.maxStates = maxStates
            self.factChanges = factChanges
        }
    }

    /// What `onProgress` is told while exploring.
    package struct Progress: Sendable {
        /// The depth being explored.
        package var depth: Int
        /// Distinct states so far.
        package var states: Int
        /// Operations tried so far.
        package var transitions: Int
        /// Fact assignments met so far.
        package var assignments: Int
        /// Wall-clock seconds since the run started.
        package var elapsed: Double

        /// Operations per second so far.
        package var transitionsPerSecond: Double { Double(transitions) / max(elapsed, 0.001) }
    }

    /// What one operation did from one state.
    struct Transition {
        /// The router state it led to when it changed the state and ran (`nil` for an outcome
        /// from the memo, which keeps no router states: see `successor(of:)`). Boxed: a router
        /// state takes about a kilobyte inline, and a transition is copied a few times on its way.
        var successor: SuccessorState?
        var key: StateKey
        var changed: Bool
        /// Whether the request itself applied (not a redirect).
        var allowed: Bool
        /// Every history entry it recorded, as text: the decision `diff` compares.
        var decision: String
        /// The entries of `decision` one by one, each with the route its navigation names
        /// (`nil` for a dialog or a routeless kind): `diff` charges a change in a link's plan to
        /// the route of the step that changed.
        var entries: [(text: String, route: String?)] = []
        /// The rule that blocked, redirected or refused first, if one.
        var location: String? { locations.first }
        /// Every rule that blocked, redirected or refused, in the order they decided (a dialog
        /// rule redirecting a rule's redirect comes after it).
        var locations: [String] = []
        /// The unset facts and unanswered hosts read (variable numbers): the outcome holds only
        /// once they are assigned, and the branch is split.
        var reads: [Int] = []
        /// Failed entries' reasons.
        var failures: [String]
    }

    /// A router state an operation led to, shared by the copies of its transition.
    final class SuccessorState {
        let state: FlowRouterState<FlowRouteValue, FlowDialogValue>

        init(_ state: FlowRouterState<FlowRouteValue, FlowDialogValue>) {
            self.state = state
        }
    }

    /// A transition with what else the operation did: the hosts it called that have no listed
    /// answers, and the style rules that failed.
    struct Outcome {
        var transition: Transition
        var unanswered: [String] = []
        var styleFailures: [String] = []
    }

    /// The project explored.
    package let project: FlowProject
    /// Its manifest.
    package let manifest: FlowManifest
    /// The bounds.
    package let options: Options
    /// The wall-clock limit of one rule call in this exploration: none (findings never depend
    /// on the machine's speed or load; the instruction and memory budgets stop a rule).
    package var ruleTimeLimit: Duration? { engine.ruleTimeLimit }

    /// Called about every 500 operations tried.
    package var onProgress: (@MainActor (Progress) -> Void)?
    /// Set by `interrupt()`: the run stops at the next state and reports what it found so far.
    package internal(set) var isInterrupted = false

    let engine: FlowRulesEngine<FlowRouteValue>
    let router: FlowRouter<FlowRouteValue, FlowDialogValue>
    let root: FlowRouteValue
    /// The state every combination starts from (one root stack, or the tabs with the first selected).
    let startState: FlowRouterState<FlowRouteValue, FlowDialogValue>
    let invariants: FlowExploreInvariants
    /// Numbers routes and dialogs in state keys (a diff's two explorers share one).
    var coder = FlowExploreStateCoder()
    /// Registered decision rules: `file:line` → what registered it (`flow.guard "login"`).
    let rules: [String: String]
    /// The facts and host answers split on, and the assignments met (a diff's two explorers
    /// share one).
    var assignments: FlowExploreAssignments
    var unanswered: [String] = []
    /// The rules that decided in the operation being tried, in order.
    var decidingLocations: [String] = []
    /// The unset facts and unanswered hosts read since the last `beginReads()`.
    var unsetReads: [Int] = []
    /// Every fact and host answer read since the last `beginReads()`, in order, with its value.
    var reads: [FlowExploreMemo.Read] = []
    /// Operations' outcomes by screens and what their decisions read (not with fact changes:
    /// a change retries what is held, which no key tells).
    var memo = FlowExploreMemo()
    /// Whether the engine's facts hold more than the constants (a fact change set one).
    var engineHoldsVariables = true
    var decidedLocations: Set<String> = []
    var seenDiagnostics = 0
    /// The finding key of each failure reason met (`noteFailure`).
    var failureKeys: [String: String] = [:]
    /// Whether transitions describe their decisions (`diff` compares them).
    var recordsDecisions = false
    /// Whether every distinct navigation step is kept in `observedSteps` (`graph --explore`).
    package var recordsSteps = false
    /// With `recordsSteps`, every distinct navigation step explored, in the order first met:
    /// applied, refused (with the rule's reason) or answered with a dialog.
    package private(set) var observedSteps: [FlowNavigationStep] = []
    private var observedStepSet: Set<FlowNavigationStep> = []

    /// The marker of a host call with no listed answers.
    static let unansweredMarker = "has no answers to explore"
    /// The marker of a read of an unset fact or an unanswered host (the branch is split, the
    /// outcome dropped).
    static let unsetMarker = "is not assigned yet: exploration splits here"

    /// Loads the project's rules into one engine, its invariants (`explore/*.lua`) and the
    /// inventory of its rules.
    ///
    /// - Throws: the rules' or invariants' load error with `file:line`, or a project without a
    ///   manifest root.
    package init(project: FlowProject, rules: [FlowRulesSource]? = nil, options: Options = Options()) throws(FlowScriptError) {
        // With tabs, the first tab's root is where exploring starts.
        guard let manifest = project.manifest, let root = manifest.root ?? manifest.tabs.first?.root else {
            throw FlowScriptError(
                kind: .runtime, file: FlowProject.manifestFileName,
                message: "explore needs a manifest with a root (or tabs): declare root = \"...\" and the routes in routes.lua")
        }
        self.project = project
        self.manifest = manifest
        self.options = options
        self.root = root
        assignments = FlowExploreAssignments(manifest: manifest)
        let sources = rules ?? project.rules
        engine = try FlowRulesEngine<FlowRouteValue>(
            sources: sources, configuration: FlowRulesConfiguration(manifest: manifest, logger: FlowTestRunnerLog.silent))
        self.rules = try FlowExploreRuleInventory.rules(in: sources, manifest: manifest)
        invariants = try FlowExploreInvariants(directory: project.directory.appendingPathComponent("explore"))
        router = manifest.tabs.isEmpty
            ? FlowRouter<FlowRouteValue, FlowDialogValue>(root: root)
            : FlowRouter<FlowRouteValue, FlowDialogValue>(tabs: manifest.tabs.map { ($0.name, $0.root) })
        startState = router.state
        router.maximumOperationHistoryCount = 32
        engine.install(into: router)
        router.deepLinks.now = { Date(timeIntervalSince1970: 1_767_225_600) }
        // Only the instruction and memory budgets stop a rule: a finding never depends on the
        // machine's speed or load.
        engine.ruleTimeLimit = nil
        engine.onDecidingRule = { [unowned self] location in
            if let location { self.decidingLocations.append(location) }
        }
        // The engine holds the constant facts only: every other fact a rule reads is served by
        // `fact(_:)`, which records the read.
        engine.onMissingFact = { [unowned self] name in self.serveFact(name) }
        invariants.onMissingFact = { [unowned self] name in
            // The invariants' facts are those the state's assignment sets: a missing one is unset.
            guard self.activeAssignment >= 0 else { return .success(nil) }
            if let name {
                guard let index = self.assignments.index(of: name) else { return .success(nil) }
                return self.read(index).map { _ in nil }
            }
            for index in self.assignments.variables.indices where self.assignments.variables[index].isFact {
                if case .failure(let error) = self.read(index) { return .failure(error) }
            }
            return .success(nil)
        }
        exploreExperiments()
        let pattern = /host\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)/
        var hosts = Set<String>()
        for source in sources {
            for match in source.text.matches(of: pattern) { hosts.insert(String(match.output.1)) }
        }
        for name in hosts.sorted() {
            engine.registerHost(name) { [unowned self] _ in
                if let index = self.assignments.index(of: "host.\(name)") { return [try self.read(index).get()] }
                self.unanswered.append(name)
                throw FlowScriptError(
                    kind: .host,
                    message: "host.\(name) \(Self.unansweredMarker): list its outcomes in routes.lua, as in "
                        + "explore = { hostAnswers = { \(name) = { true, false } } }")
            }
        }
    }

    /// The assignment the engine's facts and host answers are set to now (-1: none).
    var activeAssignment = -1

    /// Variable `index` read under the active assignment: its value, recorded; unset, the read
    /// is recorded as a split and fails the rule (its outcome is dropped).
    func read(_ index: Int) -> Result<FlowScriptValue?, FlowScriptError> {
        guard activeAssignment >= 0 else { return .success(nil) }
        if let value = assignments.value(activeAssignment, index) {
            // Read again, it reads the same: recorded once.
            let number = Int32(index)
            var known = false
            for read in reads where read.variable == number {
                known = true
                break
            }
            if !known { reads.append(FlowExploreMemo.Read(variable: number, value: Int8(value))) }
            return .success(assignments.variables[index].values[value])
        }
        let variable = assignments.variables[index]
        reads.append(FlowExploreMemo.Read(variable: Int32(index), value: -1))
        unsetReads.append(index)
        let what = variable.isFact ? "fact '\(variable.name)'" : variable.label
        return .failure(FlowScriptError(kind: variable.isHost ? .host : .runtime, message: "\(what) \(Self.unsetMarker)"))
    }

    /// A fact the engine does not hold, read by a rule (`nil`: `pairs(facts)`, every fact, the
    /// first unset one split on first).
    func serveFact(_ name: String?) -> Result<FlowScriptValue?, FlowScriptError> {
        if let name {
            guard let index = assignments.index(of: name) else { return .success(nil) }
            return read(index)
        }
        guard activeAssignment >= 0 else { return .success(nil) }
        var all = assignments.constants
        for (index, variable) in assignments.variables.enumerated() where variable.isFact {
            switch read(index) {
            case .success(let value): all[variable.name] = value
            case .failure(let error): return .failure(error)
            }
        }
        return .success(.table(all))
    }
    /// The key of the state the router shows now, when known (`apply` restores another).
    var routerKey: StateKey?

    /// Makes assignment `id` the active one: the facts, host answers and experiments rules read
    /// from now on are served from it (`read(_:)`; an unset one splits).
    ///
    /// With fact changes the router holds nothing while they change (a held navigation or link
    /// would be retried: not a step, only the switch to the facts of the state explored next),
    /// and the caller restores the state it explores.
    func activate(_ id: Int) throws(FlowScriptError) {
        guard id != activeAssignment else { return }
        activeAssignment = -1
        if options.factChanges {
            router.restoreValidated(startState, held: true)
            routerKey = nil
        }
        // Switching assignments costs nothing more: the facts are served as rules read them.
        if engineHoldsVariables {
            try engine.replaceFacts(exactly: assignments.constants)
            engineHoldsVariables = false
        }
        activeAssignment = id
    }

    /// Starts recording the facts and host answers rules read.
    func beginReads() {
        unsetReads.removeAll(keepingCapacity: true)
        // Not keeping capacity: the memo keeps these arrays, and a long redirect chain's
        // capacity would stay with every later one.
        reads.removeAll()
    }

    /// What `step` does from `state` (whose key is `key`) under the active assignment: from the
    /// memo when the same operation on the same screens read the same values before.
    func outcome(
        of step: FlowExploreStep, number: Int, from state: FlowRouterState<FlowRouteValue, FlowDialogValue>, key: StateKey, screens: Int32
    ) -> Outcome {
        let combination = activeAssignment
        let memoizes = !options.factChanges && combination >= 0
        // Route steps come first in every state's steps, in one order: numbered by position.
        let slot = memoizes ? memo.slot(screens, number < routeSteps.count ? number : nil, step) : 0
        if memoizes {
            switch memo.answer(slot, combination: combination, value: { self.assignments.value(combination, $0) }) {
            case .outcome(let outcome): return outcome
            case .split(let variable):
                return Outcome(transition: Transition(
                    key: key, changed: false, allowed: false, decision: "", reads: [variable], failures: []))
            case .unknown: break
            }
        }
        unanswered.removeAll()
        let transition = apply(step, to: state, key: key)
        let outcome = Outcome(transition: transition, unanswered: unanswered, styleFailures: newErrorDiagnostics().map(\.description))
        // Kept without its router state: most operations change nothing or lead to a known state.
        if memoizes, transition.reads.isEmpty { memo.keep(outcome, in: slot, reads: reads) }
        return outcome
    }

    /// The state `step` leads to from `state`: the router state `outcome` holds; for an outcome
    /// from the memo, the router state a transition of this depth already led to with the same
    /// screens (`known`: states are told apart by their keys, never by screen identities), else
    /// the operation run again for it. Most new states of a depth are one screens under
    /// several assignments: on the streaming fixture, running them again was three quarters
    /// of the operations run (debug build, 14.5 → 2.5 processor seconds).
    func successor(
        of outcome: Outcome, step: FlowExploreStep, from state: FlowRouterState<FlowRouteValue, FlowDialogValue>, key: StateKey,
        known: inout [[UInt32]: SuccessorState]
    ) -> FlowRouterState<FlowRouteValue, FlowDialogValue> {
        let codes = outcome.transition.key.codes
        if let successor = outcome.transition.successor ?? known[codes] {
            if known[codes] == nil { known[codes] = successor }
            return successor.state
        }
        let successor = apply(step, to: state, key: key).successor ?? SuccessorState(router.state)
        _ = newErrorDiagnostics()
        known[codes] = successor
        return successor.state
    }

    /// The routes tried: every declared route, with every combination of sample parameters.
    lazy var sampleRoutes: [FlowRouteValue] = {
        var routes: [FlowRouteValue] = []
        for name in manifest.routes.keys.sorted() {
            var payloads: [[String: FlowScriptValue]] = [[:]]
            let params = manifest.routes[name]!.params
            for param in params.keys.sorted() {
                let samples = manifest.explore.params[param] ?? [Self.sample(ofType: params[param]!)]
                payloads = payloads.flatMap { payload in
                    samples.map { sample in
                        var next = payload
                        next[param] = sample
                        return next
                    }
                }
            }
            routes += payloads.map { FlowRouteValue(name, $0) }
        }
        return routes
    }()

    /// The operations on every sample route, tried from every state: those its declaration
    /// lists (`opens = { "sheet" }`), every one where it lists none.
    lazy var routeSteps: [FlowExploreStep] = sampleRoutes.flatMap { route -> [FlowExploreStep] in
        let all: [(String, FlowExploreStep)] = [
            ("push", .push(route)), ("pushMany", .pushMany(route)), ("sheet", .sheet(route)),
            ("fullScreenCover", .fullScreenCover(route)), ("setRoot", .setRoot(route)), ("replaceCurrent", .replaceCurrent(route)),
        ]
        guard let opens = manifest.routes[route.name]?.opens else { return all.map(\.1) }
        return all.filter { opens.contains($0.0) }.map(\.1)
    }

    static func sample(ofType type: String) -> FlowScriptValue {
        switch type {
        case "string": "1"
        case "number", "integer": 1
        case "boolean": true
        default: .table([:])
        }
    }

    /// Sets assignment `id`'s facts and host answers and returns the root state.
    func prepare(_ id: Int) throws(FlowScriptError) -> FlowRouterState<FlowRouteValue, FlowDialogValue> {
        activeAssignment = -1
        // Nothing held from another branch's states: not retried now, not kept in the root.
        router.restoreValidated(startState, held: true)
        routerKey = nil
        try activate(id)
        router.clearGlobalDialogs()
        try? router.restore(startState)
        routerKey = nil
        router.clearOperationHistory()
        return router.state
    }

    /// The operations tried from the router's current state.
    func steps(from state: FlowRouterState<FlowRouteValue, FlowDialogValue>) -> [FlowExploreStep] {
        var steps = routeSteps
        guard let front = state.stacks.last else { return steps }
        var below = Set<FlowRouteValue>()
        for route in front.routes.dropLast() where below.insert(route).inserted { steps.append(.popTo(route)) }
        if front.pathCount > 0 { steps += [.pop, .popToRoot] }
        if state.stacks.count > 1 { steps += [.dismiss, .dismissAll] }
        let frontIndex = state.stacks.count - 1
        if front.pathCount > 0 || frontIndex > 0 {
            let style = router.resolvedStyle(stackIndex: frontIndex, screenDepth: front.pathCount)
            if front.pathCount > 0, style?.screen.navigationBarBackButtonHidden != true { steps.append(.userPop) }
            if frontIndex > 0, front.style == .sheet, style?.modal?.interactiveDismissDisabled != true { steps.append(.userDismiss) }
        }
        steps += manifest.dialogs.map { .showDialog($0) }
        if state.globalDialog != nil { steps.append(.hideDialog) }
        steps += manifest.explore.urls.map { .open($0) }
        // Tabs: a switch to each tab (the selected one again pops it to its root).
        steps += manifest.tabs.map { .selectTab($0.name) }
        if options.factChanges, activeAssignment >= 0 {
            // Facts with more than one explored value change to each other value (an unset one
            // to each: whatever it was, no rule read it).
            for (index, variable) in assignments.variables.enumerated() where variable.isFact {
                let current = assignments.value(activeAssignment, index)
                for (number, value) in variable.values.enumerated() where number != current {
                    steps.append(.setFact(variable.name, value))
                }
            }
        }
        return steps
    }

    /// What performing one step did, before its history is read.
    private struct Performed {
        var result: FlowOperationResult<FlowRouteValue>?
        /// A link's outcome when it did not apply (`link unhandled: ...`).
        var extra: String?
        /// Whether `extra` names a failing rule (a handler that returns no plan leaves the link
        /// unhandled on purpose, naming its own file:line: no failure).
        var extraFailed = false
        /// A link is allowed when its plan applied (its first step may be a popToRoot with
        /// nothing to pop, which says nothing of the link).
        var linkApplied: Bool?
        /// The combination in force after the step (a fact change moves to another).
        var combinationAfter: Int
    }

    /// Performs one step from `state` and says what happened.
    func apply(_ step: FlowExploreStep, to state: FlowRouterState<FlowRouteValue, FlowDialogValue>, key stateKey: StateKey? = nil) -> Transition {
        let combination = max(activeAssignment, 0)
        let sourceKey = stateKey ?? key(of: state, combination: combination)
        // Restoring validates the whole state: skipped when the router already shows this one
        // (the last operation left it unchanged).
        if routerKey != sourceKey { router.restoreValidated(state, held: options.factChanges) }
        routerKey = nil
        let before = router.history.last?.sequence ?? 0
        decidingLocations.removeAll()
        beginReads()
        let performed = perform(step, combination: combination)
        var transition = Transition(
            key: sourceKey, changed: false, allowed: true, decision: "", locations: decidingLocations, reads: unsetReads,
            failures: [])
        readHistory(since: before, into: &transition, performed: performed)
        // The history is read: the state kept holds none (its own copy of the last entries was
        // most of a kept state's memory, and a restore never reads it).
        router.clearOperationHistory()
        let after = router.state
        transition.key = key(of: after, combination: performed.combinationAfter)
        transition.changed = transition.key != sourceKey
        if transition.changed { transition.successor = SuccessorState(after) }
        routerKey = transition.key
        if performed.combinationAfter != combination {
            // Back to this state's facts, retrying nothing (the router is restored next).
            try? activate(combination)
            routerKey = nil
        }
        return transition
    }

    /// Performs `step` on the router (under assignment `combination`).
    private func perform(_ step: FlowExploreStep, combination: Int) -> Performed {
        var performed = Performed(combinationAfter: combination)
        switch step {
        case .push(let route): performed.result = router.perform(FlowCommand(.push(route, target: .active)))
        case .pushMany(let route): performed.result = router.perform(FlowCommand.pushMany([route], target: .active)!)
        case .sheet(let route): performed.result = router.perform(FlowCommand(.present(route, style: .sheet)))
        case .fullScreenCover(let route): performed.result = router.perform(FlowCommand(.present(route, style: .fullScreenCover)))
        case .setRoot(let route): performed.result = router.perform(FlowCommand(.setRoot(route)))
        case .replaceCurrent(let route): performed.result = router.perform(FlowCommand(.replaceCurrent(route, target: .active)))
        case .popTo(let route): performed.result = router.perform(FlowCommand(.popTo(route, match: .exclusive, target: .active)))
        case .pop: performed.result = router.perform(FlowCommand(.pop(count: 1, target: .active)))
        case .popToRoot: performed.result = router.perform(FlowCommand(.popToRoot(target: .active)))
        case .dismiss: performed.result = router.perform(FlowCommand(.dismiss(target: .active)))
        case .dismissAll: performed.result = router.perform(FlowCommand(.dismissAll))
        case .userPop: performed.result = router.userDidPop()
        case .userDismiss: performed.result = router.userDidDismiss()
        case .showDialog(let id): router.showGlobalDialog(FlowDialogValue(id: id))
        case .hideDialog: router.hideGlobalDialog()
        case .selectTab(let name): performed.result = router.perform(.selectTab(name))
        case .setFact(let name, let value):
            // The app changes a fact: rules see it at once, and the held link and the held
            // navigation of this state are retried (their steps are read below); the next
            // operation from this state runs under the state's own facts again.
            guard let variable = assignments.index(of: name),
                  let number = assignments.variables[variable].values.firstIndex(of: value) else { break }
            let index = assignments.assigning(combination, variable: variable, value: number)
            // The new assignment is in force while the held navigation and link are retried.
            activeAssignment = index
            do {
                engineHoldsVariables = true
                try engine.setFacts([name: value])
                performed.combinationAfter = index
            } catch {
                activeAssignment = -1
                try? activate(combination)
            }
        case .open(let text):
            if let url = URL(string: text) {
                let result = router.open(url)
                performed.linkApplied = result.status == .applied
                if result.status != .applied {
                    let reason = result.reason ?? ""
                    performed.extra = "link \(result.status): \(reason)"
                    performed.extraFailed = !(result.status == .unhandled && reason.contains("handler returned no plan"))
                }
            }
        }
        return performed
    }

    /// Reads the history entries after sequence `before` into `transition`: whether the request
    /// applied, the failures, and (`recordsDecisions`) the decision as text.
    private func readHistory(since before: Int, into transition: inout Transition, performed: Performed) {
        var decision: [String] = []
        let history = router.history
        let end = history.endIndex
        var start = end
        while start > 0, history[start - 1].sequence > before { start -= 1 }
        // By position: iterating a slice of the history is most of this function's cost in a
        // debug build.
        for position in start..<end {
            let entry = history[position]
            if recordsDecisions {
                var text = Self.describe(entry.event) + ": " + entry.status.rawValue
                if let reason = entry.reason { text += " (" + reason + ")" }
                decision.append(text)
                var route: String?
                if case .navigation(let command) = entry.event { route = Self.firstRoute(of: command)?.name }
                transition.entries.append((text, route))
            }
            if position == start { transition.allowed = entry.status.isApplied || entry.status == .ignored }
            if entry.status == .failed, let reason = entry.reason { transition.failures.append(reason) }
        }
        if let linkApplied = performed.linkApplied { transition.allowed = linkApplied }
        if let extra = performed.extra {
            decision.append(extra)
            if performed.extraFailed, FlowExploreRuleInventory.location(in: extra) != nil { transition.failures.append(extra) }
        }
        transition.decision = decision.joined(separator: " → ")
        if recordsSteps { record(history[start...], answered: performed.result) }
    }

    /// A history entry's event as history steps name it (`push checkout`, `showDialog
    /// cartEmpty (queue)`), no Swift type names.
    private static func describe(_ event: FlowHistoryEvent<FlowRouteValue>) -> String {
        switch event {
        case .navigation(let command):
            command.kindName + (destination(of: command).map { " \($0)" } ?? "")
        case .dialog(let change):
            switch change.action {
            case .show(let policy): "showDialog \(change.dialog ?? "") (\(policy.rawValue))"
            case .hide: "hideDialog \(change.dialog ?? "")"
            case .clear: "clearDialogs"
            }
        }
    }

    /// The first route `command` navigates to (`command.routes.first`, without building the array).
    static func firstRoute(of command: FlowCommand<FlowRouteValue>) -> FlowRouteValue? {
        if let batch = command.batch { return batch.first }
        switch command.operation {
        case .setRoot(let route), .push(let route, _), .pushRemovingPrevious(let route, _), .replaceCurrent(let route, _),
             .present(let route, _), .popTo(let route, _, _), .replacePath(let route, _, _):
            return route
        case .pop, .popToRoot, .dismiss, .dismissAll:
            return nil
        }
    }

    static func destination(of command: FlowCommand<FlowRouteValue>) -> String? {
        if let batch = command.batch { return batch.map(\.description).joined(separator: ",") }
        if let tab = command.tab { return tab }
        switch command.operation {
        case .setRoot(let route), .push(let route, _), .pushRemovingPrevious(let route, _), .replaceCurrent(let route, _),
             .present(let route, _), .popTo(let route, _, _):
            return route.description
        case .replacePath(let root, let path, _):
            return ([root] + path).map(\.description).joined(separator: ",")
        default:
            return nil
        }
    }

    /// Whether the state a key describes is within the bounds (read from the key's numbers: the
    /// memo keeps no router states).
    func withinBounds(_ key: StateKey) -> Bool {
        let codes = key.codes
        let stacks = Int(codes[0])
        guard stacks - 1 <= options.maxPresented else { return false }
        var index = 1
        for _ in 0..<stacks {
            let count = Int(codes[index] & 0xFF_FFFF)
            guard count <= options.maxStack else { return false }
            index += 1 + count
        }
        let dialogs = codes[index]
        let shown = Int(dialogs & 1)
        guard Int(dialogs >> 1) - shown <= options.maxQueued else { return false }
        index += 1 + Int(dialogs >> 1)
        guard codes[index] > 0 else { return true }
        index += 1
        while index < codes.count - (options.factChanges ? 2 : 0) {
            let count = Int(codes[index])
            guard count <= options.maxStack else { return false }
            index += 1 + count
        }
        return true
    }

    /// New error diagnostics of the engine (failing style rules), since the last call.
    func newErrorDiagnostics() -> [FlowScriptDiagnostic] {
        let all = engine.diagnostics
        defer { seenDiagnostics = all.count }
        guard all.count > seenDiagnostics else { return [] }
        return all[seenDiagnostics...].filter { $0.severity == .error }
    }

    /// Keeps the navigation steps of `entries` not seen before, as the flow runner records
    /// them; a navigation answered with a dialog names it.
    private func record(_ entries: some Sequence<FlowHistoryEntry<FlowRouteValue>>, answered result: FlowOperationResult<FlowRouteValue>?) {
        var dialogs: [Int: String] = [:]
        var next = result
        while let current = next {
            if let answer = current.dialogRedirect, let sequence = current.sequence { dialogs[sequence] = answer.dialog.id }
            next = current.redirect
        }
        for entry in entries {
            guard let command = entry.command else { continue }
            let from = entry.previousStacks.last?.topRoute
            let to = entry.status.isApplied
                ? entry.newStacks.last?.topRoute : FlowTestRunner<FlowRouteValue>.destination(of: command, in: entry.previousStacks)
            let step = FlowNavigationStep(
                from: from?.name ?? "?", to: (to ?? from)?.name ?? "?", kind: command.kindName, applied: entry.status.isApplied,
                reason: entry.status.isApplied ? nil : entry.reason, source: entry.source.rawValue, dialog: dialogs[entry.sequence],
                experiments: entry.experiments)
            if observedStepSet.insert(step).inserted { observedSteps.append(step) }
        }
    }
}
