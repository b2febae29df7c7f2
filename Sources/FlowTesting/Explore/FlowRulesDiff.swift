import FlowLua
import FlowScript
import FlowStackCore
import Foundation

/// One decision that differs between two rule sets, with the shortest trace that reaches it.
package struct FlowDiffChange: Hashable, Sendable, Codable {
    /// Which way a decision moved.
    package enum Direction: String, Hashable, Sendable, Codable, CaseIterable {
        /// Allowed before, refused now.
        case moreRestrictive = "more-restrictive"
        /// Refused before, allowed now.
        case morePermissive = "more-permissive"
        /// Refused both times differently (reason, redirect, dialog), or allowed with other effects.
        case changed
    }

    /// The route the operation names (or, for one that names none, the route of the first
    /// step whose decision differs, else the screen it leaves); nil for a tab, dialog or link.
    package var route: String?
    /// The tab a `selectTab` names.
    package var tab: String?
    /// The dialog a `showDialog` (or `hideDialog`) names.
    package var dialog: String?
    /// The link (`explore.urls` entry) a `router.open` opens.
    package var link: String?
    /// The operation, as a history step.
    package var operation: String
    /// The shortest trace from the root to the state, then the operation.
    package var trace: [String]
    /// One fact assignment that shows it.
    package var facts: [String: FlowScriptValue]
    /// The facts that matter: for each fact whose values differ among the assignments that show
    /// the change, those values.
    package var factPattern: [String: [FlowScriptValue]]
    /// What the old rules decided.
    package var before: String
    /// What the new rules decide.
    package var after: String
    /// Which way it moved.
    package var direction: Direction
    /// The rule whose decision differs first in the chain (a redirect's rule, not the dialog
    /// rule that redirected it again): the new rules' where they decided, else the old rules'.
    package var location: String?

    /// The section and name the change is charged to: `routes`, `tabs`, `dialogs` or `links`.
    package var subject: (section: String, name: String) {
        if let tab { return ("tabs", tab) }
        if let dialog { return ("dialogs", dialog) }
        if let link { return ("links", link) }
        return ("routes", route ?? "")
    }
}

/// What `flowstack diff` found: per-route verdicts and the decisions that differ.
package struct FlowDiffReport: Hashable, Sendable {
    /// A route's verdict.
    package enum Verdict: String, Hashable, Sendable, Codable {
        /// No decision about it differs.
        case unchanged
        /// Only refusals were added.
        case moreRestrictive = "more-restrictive"
        /// Only refusals were removed.
        case morePermissive = "more-permissive"
        /// Both, or decisions that changed otherwise.
        case changed
    }

    /// Whether both explorations were complete within the bounds.
    package var complete: Bool
    /// The depth to which every state was compared under every fact combination.
    package var completeDepth = 0
    /// The depth being explored when the run was interrupted, if it was.
    package var interruptedAtDepth: Int?
    /// Decisions compared.
    package var decisions: Int
    /// A verdict for every declared route.
    package var routes: [String: Verdict]
    /// A verdict for every declared tab (`selectTab`).
    package var tabs: [String: Verdict] = [:]
    /// A verdict for every declared dialog (`showDialog`).
    package var dialogs: [String: Verdict] = [:]
    /// A verdict for every link explored (`explore.urls`).
    package var links: [String: Verdict] = [:]
    /// The changes, one per subject, operation and outcome pair, ordered by section and name.
    package var changes: [FlowDiffChange]

    /// Creates a report.
    package init(complete: Bool, decisions: Int, routes: [String: Verdict], changes: [FlowDiffChange]) {
        self.complete = complete
        self.decisions = decisions
        self.routes = routes
        self.changes = changes
    }

    /// The verdicts of one section (`routes`, `tabs`, `dialogs`, `links`).
    package func verdicts(_ section: String) -> [String: Verdict] {
        switch section {
        case "tabs": tabs
        case "dialogs": dialogs
        case "links": links
        default: routes
        }
    }

    /// The sections, in the order reports list them.
    package static let sections = ["routes", "tabs", "dialogs", "links"]

    /// Whether nothing changed.
    package var isUnchanged: Bool { changes.isEmpty }

    /// The JSON of `flowstack diff --format json` (sorted keys, byte-identical between runs).
    package func json() -> String {
        struct Shape: Encodable {
            let complete: Bool
            let completeDepth: Int
            let interruptedAtDepth: Int?
            let decisions: Int
            let routes: [String: Verdict]
            let tabs: [String: Verdict]
            let dialogs: [String: Verdict]
            let links: [String: Verdict]
            let changes: [FlowDiffChange]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(Shape(
            complete: complete, completeDepth: completeDepth, interruptedAtDepth: interruptedAtDepth, decisions: decisions,
            routes: routes, tabs: tabs, dialogs: dialogs, links: links, changes: changes)) else {
            return "{}"
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Explores two rule sets over one manifest together and lists every decision that differs
/// (`flowstack diff OLD NEW`): from every state either version reaches, every operation is
/// decided by both.
@MainActor
package final class FlowRulesDiff {
    let old: FlowExplorer
    let new: FlowExplorer

    /// Loads both rule sets against the project's manifest.
    ///
    /// - Throws: either rule set's load error, with `file:line`.
    package init(
        project: FlowProject, old: [FlowRulesSource], new: [FlowRulesSource], options: FlowExplorer.Options = .init()
    ) throws(FlowScriptError) {
        self.old = try FlowExplorer(project: project, rules: old, options: options)
        self.new = try FlowExplorer(project: project, rules: new, options: options)
        // One numbering of routes, dialogs and fact assignments, so that the two explorers'
        // state keys compare.
        self.new.coder = self.old.coder
        self.new.assignments = self.old.assignments
        self.old.recordsDecisions = true
        self.new.recordsDecisions = true
    }

    /// Called about every 500 operations tried (both versions deciding one counts once).
    package var onProgress: (@MainActor (FlowExplorer.Progress) -> Void)?

    /// Stops a run at the next state: it reports the changes found so far.
    package func interrupt() {
        old.interrupt()
    }

    /// A decision's text without rule locations, which move when a file is edited.
    static func normalized(_ decision: String) -> String {
        // Most decisions name no rule: a plain search first, the regular expression only then.
        guard decision.contains(".lua:") else { return decision }
        return decision.replacing(/[A-Za-z0-9_.\/\-]+\.lua:\d+/, with: "<rule>")
    }

    /// One run's progress: the graph of states either version reaches, the changes found, the
    /// counts so far.
    struct Run {
        var graph = FlowExplorer.Graph()
        /// Changes grouped by subject, operation and both outcomes: the shortest trace's, and
        /// the assignments that show it.
        var groups: [String: (change: FlowDiffChange, length: Int, assignments: Set<Int>)] = [:]
        var decisions = 0
        /// Where the breadth-first walk over both versions is.
        var frontier = FlowExplorer.Frontier()
    }

    /// Explores both breadth-first over one frontier of (facts, state) pairs and compares every
    /// decision (giving up the main actor every few dozen states, as `FlowExplorer.run()` does).
    /// A state where either version reads an unset fact is split, as in `FlowExplorer.run()`.
    package func run() async -> FlowDiffReport {
        var run = Run()
        let options = old.options
        let assignments = old.assignments
        let hardCap = options.maxStates > Int.max / 2 ? Int.max : options.maxStates * 2
        var expanded = 0
        if let rootOld = try? old.prepare(assignments.root), (try? new.prepare(assignments.root)) != nil {
            run.frontier.layer.append(run.graph.add(rootOld, key: old.key(of: rootOld, combination: assignments.root), parent: nil, depth: 0))
        }
        explore: while !run.frontier.layer.isEmpty {
            run.frontier.next = []
            var index = 0
            while index < run.frontier.layer.count {
                if old.isInterrupted || run.graph.count >= hardCap {
                    run.frontier.stoppedAt = run.frontier.depth
                    break explore
                }
                let id = run.frontier.layer[index]
                index += 1
                expanded += 1
                if expanded % FlowExplorer.statesBetweenYields == 0 { await Task.yield() }
                compare(id, in: &run)
            }
            if run.frontier.budgetReached {
                if !run.frontier.next.isEmpty { run.frontier.stoppedAt = run.frontier.depth + 1 }
                break
            }
            run.frontier.startNextDepth()
        }
        return report(of: run)
    }

    /// Compares every operation's decisions from state `id` under both versions, or splits the
    /// state on the unset fact either read.
    func compare(_ id: Int, in run: inout Run) {
        let state = run.graph.state(id)
        defer { run.graph.release(id) }
        let assignment = run.graph.combination(id)
        do {
            try old.activate(assignment)
            try new.activate(assignment)
        } catch {
            return
        }
        try? old.router.restore(state)
        try? new.router.restore(state)
        old.routerKey = nil
        new.routerKey = nil
        old.beginReads()
        new.beginReads()
        var steps = old.steps(from: state)
        let newSteps = new.steps(from: state)
        // Both versions share the manifest: their steps differ only where their styles allow
        // different gestures (hashing every step of every state was 2% of a diff).
        if newSteps != steps {
            let known = Set(steps)
            steps += newSteps.filter { !known.contains($0) }
        }
        let outcomes = old.unsetReads.isEmpty && new.unsetReads.isEmpty ? decide(steps, from: id, state: state, in: &run) : []
        if let variable = old.unsetReads.first ?? new.unsetReads.first {
            // Either version read an unset fact: the state is compared again under each value
            // (the operations that read none of it come from the memos).
            run.graph.split[id] = true
            let parent = run.graph.parents[id].map { (Int($0.state), $0.step) }
            for value in old.assignments.variables[variable].values.indices {
                let child = old.assignments.assigning(assignment, variable: variable, value: value)
                let childKey = FlowExplorer.StateKey(codes: run.graph.stateKeys[id].codes, combination: child)
                guard run.graph.keys[childKey] == nil else { continue }
                run.frontier.layer.append(run.graph.add(state, key: childKey, parent: parent, depth: run.frontier.depth))
            }
            return
        }
        for (step, before, after) in outcomes {
            run.decisions += 1
            note(step, before.transition, after.transition, from: id, state: state, in: &run)
            if before.transition.changed { follow(step, before, of: old, from: id, state: state, in: &run) }
            // The same state as the old version's (most operations): followed already.
            if after.transition.changed, !before.transition.changed || after.transition.key != before.transition.key {
                follow(step, after, of: new, from: id, state: state, in: &run)
            }
        }
    }

    /// Both versions' outcomes of `steps` from state `id`, until either reads an unset fact
    /// (noted in its `unsetReads`).
    func decide(
        _ steps: [FlowExploreStep], from id: Int, state: FlowRouterState<FlowRouteValue, FlowDialogValue>, in run: inout Run
    ) -> [(step: FlowExploreStep, before: FlowExplorer.Outcome, after: FlowExplorer.Outcome)] {
        var outcomes: [(step: FlowExploreStep, before: FlowExplorer.Outcome, after: FlowExplorer.Outcome)] = []
        let key = run.graph.stateKeys[id]
        let screens = (old.memo.screensNumber(key.codes), new.memo.screensNumber(key.codes))
        for (number, step) in steps.enumerated() {
            let before = old.outcome(of: step, number: number, from: state, key: key, screens: screens.0)
            let after = new.outcome(of: step, number: number, from: state, key: key, screens: screens.1)
            run.frontier.tried += 1
            if let variable = before.transition.reads.first ?? after.transition.reads.first {
                (old.unsetReads.isEmpty ? old : new).unsetReads.append(variable)
                break
            }
            outcomes.append((step, before, after))
            if run.frontier.tried % 512 == 0, let onProgress {
                onProgress(FlowExplorer.Progress(
                    depth: run.frontier.depth, states: run.graph.count, transitions: run.frontier.tried, assignments: old.assignments.count,
                    elapsed: Date().timeIntervalSince(run.frontier.started)))
            }
        }
        return outcomes
    }

    /// Adds the change `step` from state `id` makes, if the versions decided it differently, to
    /// its group.
    func note(
        _ step: FlowExploreStep, _ before: FlowExplorer.Transition, _ after: FlowExplorer.Transition, from id: Int,
        state: FlowRouterState<FlowRouteValue, FlowDialogValue>, in run: inout Run
    ) {
        let assignment = run.graph.combination(id)
        guard let (groupKey, change) = Self.change(step, before, after, in: state, facts: {
            (old.assignments.labels(assignment), run.graph.steps(to: id, then: step))
        }) else { return }
        if var group = run.groups[groupKey] {
            group.assignments.insert(assignment)
            if change.trace.count < group.length { group.change = change; group.length = change.trace.count }
            run.groups[groupKey] = group
        } else {
            run.groups[groupKey] = (change, change.trace.count, [assignment])
        }
    }

    /// Where `step` from state `id` leads under one version: a known state, one the bounds
    /// leave out, or a new one of the next depth.
    func follow(
        _ step: FlowExploreStep, _ outcome: FlowExplorer.Outcome, of explorer: FlowExplorer, from id: Int,
        state: FlowRouterState<FlowRouteValue, FlowDialogValue>, in run: inout Run
    ) {
        let transition = outcome.transition
        let options = old.options
        if let known = run.graph.keys[transition.key] {
            run.graph.link(id, Int(known))
        } else if !old.withinBounds(transition.key) {
            return
        } else if run.frontier.depth >= options.depth || run.graph.count >= options.maxStates {
            run.frontier.truncated = true
            if run.frontier.depth < options.depth { run.frontier.budgetReached = true }
        } else {
            let successor = explorer.successor(
                of: outcome, step: step, from: state, key: run.graph.stateKeys[id], known: &run.frontier.successors)
            run.frontier.next.append(run.graph.add(successor, key: transition.key, parent: (id, step), depth: run.frontier.depth + 1))
        }
    }

    /// The report of a finished (or stopped) run: the changes, sorted, and each section's verdicts.
    func report(of run: Run) -> FlowDiffReport {
        var changes: [FlowDiffChange] = []
        for group in run.groups.values {
            var change = group.change
            change.factPattern = old.assignments.pattern(group.assignments)
            changes.append(change)
        }
        changes.sort {
            let left = $0.subject, right = $1.subject
            let leftSection = FlowDiffReport.sections.firstIndex(of: left.section)!
            let rightSection = FlowDiffReport.sections.firstIndex(of: right.section)!
            return (leftSection, left.name, $0.operation, $0.before, $0.after) < (rightSection, right.name, $1.operation, $1.before, $1.after)
        }
        let manifest = old.manifest
        var report = FlowDiffReport(
            complete: !run.frontier.truncated && run.frontier.stoppedAt == nil, decisions: run.decisions,
            routes: Self.verdicts(of: manifest.routes.keys, in: "routes", changes), changes: changes)
        report.tabs = Self.verdicts(of: manifest.tabs.map(\.name), in: "tabs", changes)
        report.dialogs = Self.verdicts(of: manifest.dialogs, in: "dialogs", changes)
        report.links = Self.verdicts(of: manifest.explore.urls, in: "links", changes)
        report.completeDepth = run.frontier.stoppedAt.map { $0 - 1 } ?? (report.complete ? run.frontier.depth : min(run.frontier.depth, old.options.depth))
        report.interruptedAtDepth = old.isInterrupted ? run.frontier.stoppedAt : nil
        return report
    }

    /// The change `step` from `state` makes, with the key of its group (subject, operation and
    /// both outcomes, rule locations left out), or nil when both versions decided alike.
    /// `context` gives the change's facts and trace (built only for a change).
    static func change(
        _ step: FlowExploreStep, _ before: FlowExplorer.Transition, _ after: FlowExplorer.Transition,
        in state: FlowRouterState<FlowRouteValue, FlowDialogValue>,
        facts context: () -> ([String: FlowScriptValue], [FlowExploreStep])
    ) -> (String, FlowDiffChange)? {
        // Equal texts need no normalizing (most decisions): compared as they are.
        let same = before.decision == after.decision
        let beforeText = same ? before.decision : normalized(before.decision)
        let afterText = same ? after.decision : normalized(after.decision)
        guard beforeText != afterText || before.key.codes != after.key.codes else { return nil }
        let direction: FlowDiffChange.Direction =
            before.allowed && !after.allowed ? .moreRestrictive
            : !before.allowed && after.allowed ? .morePermissive : .changed
        let (facts, trace) = context()
        var change = FlowDiffChange(
            route: nil, operation: step.description, trace: trace.map(\.description), facts: facts, factPattern: [:],
            before: before.decision, after: after.decision, direction: direction, location: firstDifferingLocation(before, after))
        switch step {
        case .selectTab(let name): change.tab = name
        case .showDialog(let id): change.dialog = id
        case .hideDialog: change.dialog = state.globalDialog?.id ?? ""
        case .open(let url): change.link = url
        default:
            change.route = step.route?.name ?? changedRoute(before, after) ?? state.stacks.last?.topRoute.name ?? ""
        }
        let subject = change.subject
        return ("\(subject.section)\u{0}\(subject.name)\u{0}\(step.description)\u{0}\(beforeText)\u{0}\(afterText)", change)
    }

    /// Each name's verdict from the changes charged to it in `section`.
    static func verdicts(of names: some Sequence<String>, in section: String, _ changes: [FlowDiffChange]) -> [String: FlowDiffReport.Verdict] {
        var directions: [String: Set<FlowDiffChange.Direction>] = [:]
        for change in changes where change.subject.section == section { directions[change.subject.name, default: []].insert(change.direction) }
        var verdicts: [String: FlowDiffReport.Verdict] = [:]
        for name in names {
            let found = directions[name] ?? []
            verdicts[name] = found.isEmpty ? .unchanged
                : found == [.moreRestrictive] ? .moreRestrictive
                : found == [.morePermissive] ? .morePermissive : .changed
        }
        return verdicts
    }

    /// The rule whose decision differs first in the two chains of deciding rules (locations
    /// compared as they are: a rule of an edited file that moved counts as differing).
    static func firstDifferingLocation(_ before: FlowExplorer.Transition, _ after: FlowExplorer.Transition) -> String? {
        for index in 0..<max(before.locations.count, after.locations.count) {
            let old = before.locations.indices.contains(index) ? before.locations[index] : nil
            let new = after.locations.indices.contains(index) ? after.locations[index] : nil
            if old != new { return new ?? old }
        }
        return after.location ?? before.location
    }

    /// The route of the first recorded step whose decision differs (locations left out), for an
    /// operation that names no route: a link's plan (`open munch://search?q=pho` made more
    /// restrictive by a guard of `searchResults` is a change of `searchResults`, not of every
    /// screen the link was opened from). `nil` when that step names no route either.
    static func changedRoute(_ before: FlowExplorer.Transition, _ after: FlowExplorer.Transition) -> String? {
        for index in 0..<max(before.entries.count, after.entries.count) {
            let old = before.entries.indices.contains(index) ? before.entries[index] : nil
            let new = after.entries.indices.contains(index) ? after.entries[index] : nil
            guard old.map({ normalized($0.text) }) != new.map({ normalized($0.text) }) else { continue }
            return new?.route ?? old?.route
        }
        return nil
    }
}
