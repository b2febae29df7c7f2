import FlowStackCore
import Foundation

extension FlowExplorer {
    /// The explored graph of one fact combination.
    ///
    /// A state's router value is kept only until its operations are tried (`release`); after
    /// that, its key says what it shows. Memory grows with the distinct states' keys and edges.
    struct Graph {
        /// Router states from id `dropped` on (`nil` once released); the released ones before
        /// them are dropped now and then, so that only the queue's states take room.
        var states: [FlowRouterState<FlowRouteValue, FlowDialogValue>?] = []
        /// How many states were dropped from the front of `states`.
        var dropped = 0
        /// Each state's key.
        var stateKeys: [FlowExplorer.StateKey] = []
        /// Each state's id by its key.
        var keys: [FlowExplorer.StateKey: Int32] = [:]
        /// States from which an operation failed (a rule error or loop, reported on its own).
        var failing: [Bool] = []
        /// The state and step each state was first reached from (`nil` for a root).
        var parents: [(state: Int32, step: FlowExploreStep)?] = []
        /// Steps from the root.
        var depths: [Int32] = []
        /// Operations between distinct states (fact changes are not: a trap is a state the
        /// person cannot leave).
        var edges: [[Int32]] = []
        /// States whose successors were not all explored (bounds): they may lead anywhere.
        var cut: [Bool] = []
        /// The combination each state's trace starts from (its facts are reported).
        var origins: [Int32] = []

        /// The number of states.
        var count: Int { stateKeys.count }

        /// The fact combination in force in state `id`.
        func combination(_ id: Int) -> Int { stateKeys[id].combination }

        /// The state explored `id` (before `release`).
        func state(_ id: Int) -> FlowRouterState<FlowRouteValue, FlowDialogValue> { states[id - dropped]! }

        mutating func add(
            _ state: FlowRouterState<FlowRouteValue, FlowDialogValue>, key: FlowExplorer.StateKey, parent: (Int, FlowExploreStep)?,
            depth: Int, origin: Int? = nil
        ) -> Int {
            let id = stateKeys.count
            states.append(state)
            stateKeys.append(key)
            keys[key] = Int32(id)
            parents.append(parent.map { (Int32($0.0), $0.1) })
            depths.append(Int32(clamping: depth))
            edges.append([])
            cut.append(false)
            failing.append(false)
            origins.append(Int32(origin ?? parent.map { Int(origins[$0.0]) } ?? key.combination))
            return id
        }

        /// An operation from `from` leads to the known state `to`.
        mutating func link(_ from: Int, _ to: Int) {
            if edges[from].last != Int32(to) { edges[from].append(Int32(to)) }
        }

        /// Drops state `id`'s router value once its operations were tried, and compacts its edges.
        mutating func release(_ id: Int) {
            states[id - dropped] = nil
            // Its edges are final: kept once each, without the spare capacity of a growing array.
            if edges[id].count > 1 { edges[id] = Set(edges[id]).sorted() }
            // States are released in order (breadth first): drop the released run at the front
            // once it is long enough to be worth the move.
            if id - dropped >= 4_095 {
                let count = states.prefix { $0 == nil }.count
                states.removeFirst(count)
                dropped += count
            }
        }

        /// The steps from the root to `id`.
        func steps(to id: Int, then last: FlowExploreStep? = nil) -> [FlowExploreStep] {
            var steps: [FlowExploreStep] = last.map { [$0] } ?? []
            var current = id
            while let parent = parents[current] {
                steps.append(parent.step)
                current = Int(parent.state)
            }
            return steps.reversed()
        }
    }

    /// How many states are explored between two yields of the main actor.
    static let statesBetweenYields = 64

    /// Keeps the finding with the shortest trace for each key.
    struct Findings {
        var byKey: [String: FlowExploreFinding] = [:]
        var order: [String] = []

        mutating func note(_ key: String, _ finding: @autoclosure () -> FlowExploreFinding, length: Int) {
            if let existing = byKey[key] {
                guard length < existing.steps.count else { return }
            } else {
                order.append(key)
            }
            byKey[key] = finding()
        }
    }

    /// Explores every fact combination within the bounds and reports the findings.
    ///
    /// Runs on the main actor and gives it up every few dozen states, so an app's or a test
    /// run's other main-actor work goes on while a large exploration runs.
    package func run() async -> FlowExploreReport {
        let started = Date()
        var report = FlowExploreReport()
        var findings = Findings()
        let combinations = combinationList
        report.factCombinations = combinations.count
        var shownUnder: [String: Set<Int>] = [:]
        var totalStates = 0
        // Facts fixed: one graph per combination. Fact changes: one graph from the root under
        // every combination, a fact change being a step like any other.
        let groups = options.factChanges ? [Array(combinations.indices)] : combinations.indices.map { [$0] }
        // Facts fixed: the combinations explored, with the hosts their exploration asked. A
        // combination that differs from one of them only in the answers of hosts it never asked
        // is explored exactly as it was: its states are that one's, not explored again.
        var explored: [(index: Int, asked: Set<String>)] = []
        for group in groups {
            if !options.factChanges, let index = group.first,
               let same = explored.first(where: { Self.answersAlike(combinations[$0.index], combinations[index], asked: $0.asked) }) {
                for (route, indexes) in shownUnder where indexes.contains(same.index) { shownUnder[route]!.insert(index) }
                report.sharedCombinations += 1
                continue
            }
            askedHosts.removeAll()
            var graph = Graph()
            for index in group {
                let rootState: FlowRouterState<FlowRouteValue, FlowDialogValue>
                do {
                    rootState = try prepare(combinations[index])
                } catch {
                    findings.note("facts \(error.message)", FlowExploreFinding(
                        kind: .ruleError, message: "the facts could not be set: \(error.description)", facts: combinations[index].labels),
                        length: 0)
                    continue
                }
                let root = graph.add(rootState, key: key(of: rootState, combination: index), parent: nil, depth: 0)
                note(shown: rootState, combination: index, in: &shownUnder)
                checkInvariants(graph: graph, id: root, labels: combinations[index].labels, findings: &findings)
            }
            // With fact changes, the first state showing each screens (what is held stays held on
            // the way back: a state past the depth that shows a known state's screens leads there).
            var screensIndex: [StateKey: Int32] = [:]
            if options.factChanges {
                for (id, key) in graph.stateKeys.enumerated() where screensIndex[Self.screens(of: key)] == nil {
                    screensIndex[Self.screens(of: key)] = Int32(id)
                }
            }
            var next = 0
            while next < graph.count {
                if totalStates + graph.count >= options.maxStates {
                    report.complete = false
                    for id in next..<graph.count { graph.cut[id] = true }
                    break
                }
                let id = next
                next += 1
                if id % Self.statesBetweenYields == 0 { await Task.yield() }
                let state = graph.state(id)
                defer { graph.release(id) }
                let depth = Int(graph.depths[id])
                let labels = combinations[Int(graph.origins[id])].labels
                do {
                    try activate(graph.combination(id))
                } catch {
                    continue
                }
                let key = graph.stateKeys[id]
                router.restoreValidated(state, held: options.factChanges)
                routerKey = key
                for failure in newErrorDiagnostics() {
                    noteFailure(failure.description, graph: graph, id: id, step: nil, labels: labels, findings: &findings)
                }
                for step in steps(from: state) {
                    unanswered.removeAll()
                    let transition = apply(step, to: state, key: key)
                    report.transitions += 1
                    for name in unanswered {
                        findings.note("host \(name)", FlowExploreFinding(
                            kind: .unansweredHost,
                            message: "host.\(name) was called with no answers to explore: list its outcomes in routes.lua, "
                                + "as in explore = { hostAnswers = { \(name) = { true, false } } }",
                            route: step.route?.name, facts: labels, steps: graph.steps(to: id, then: step)),
                            length: depth + 1)
                    }
                    if !transition.failures.isEmpty { graph.failing[id] = true }
                    for failure in transition.failures where !failure.contains(Self.unansweredMarker) {
                        noteFailure(failure, graph: graph, id: id, step: step, labels: labels, findings: &findings)
                    }
                    guard transition.changed else { continue }
                    let isFactChange = if case .setFact = step { true } else { false }
                    if let known = graph.keys[transition.key] {
                        if !isFactChange { graph.link(id, Int(known)) }
                    } else if !withinBounds(transition.state) {
                        // Max-stack and max-presented are constraints on the states explored:
                        // leaving them out does not make the exploration incomplete.
                        continue
                    } else if depth >= options.depth || totalStates + graph.count >= options.maxStates {
                        report.complete = false
                        if totalStates + graph.count >= options.maxStates { graph.cut[id] = true }
                        // Past the depth: showing a known state's screens (only what is held
                        // differs), it leads back as that one does.
                        if !isFactChange, let same = screensIndex[Self.screens(of: transition.key)] { graph.link(id, Int(same)) }
                    } else {
                        let new = graph.add(transition.state, key: transition.key, parent: (id, step), depth: depth + 1)
                        if options.factChanges, screensIndex[Self.screens(of: transition.key)] == nil {
                            screensIndex[Self.screens(of: transition.key)] = Int32(new)
                        }
                        note(shown: transition.state, combination: transition.key.combination, in: &shownUnder)
                        if !isFactChange { graph.link(id, new) }
                        report.diameter = max(report.diameter, depth + 1)
                        checkInvariants(graph: graph, id: new, labels: labels, findings: &findings)
                    }
                }
                if graph.count % 2_000 == 0, let onProgress {
                    let seconds = max(Date().timeIntervalSince(started), 0.001)
                    onProgress(Progress(
                        states: totalStates + graph.count, queue: graph.count - next,
                        statesPerSecond: Double(totalStates + graph.count) / seconds))
                }
            }
            totalStates += graph.count
            if let index = group.first { explored.append((index, askedHosts)) }
            noteTraps(graph: graph, findings: &findings)
            if !report.complete && totalStates >= options.maxStates { break }
        }
        report.states = totalStates
        for name in manifest.routes.keys.sorted() where shownUnder[name] == nil {
            findings.note("unreachable \(name)", FlowExploreFinding(
                kind: .unreachable,
                message: "no explored state shows '\(name)' under any facts: a rule refuses every way to it, "
                    + "or nothing opens it within the bounds",
                route: name), length: 0)
        }
        // A rule that failed decided too (the failure refused the request): the rule whose
        // function starts last before the failing line.
        var decided = decidedLocations
        for finding in findings.byKey.values where finding.kind == .ruleError || finding.kind == .redirectLoop {
            if let location = finding.location, let rule = enclosingRule(of: location) { decided.insert(rule) }
        }
        for (location, what) in rules.sorted(by: { $0.key < $1.key }) where !decided.contains(location) {
            findings.note("dead \(location)", FlowExploreFinding(
                kind: .deadRule,
                message: "\(what) never blocked, redirected or refused anything in any explored state: remove it, "
                    + "or list the facts it needs in the manifest's explore section",
                location: location), length: 0)
        }
        report.someFactsOnly = someFactsOnly(shownUnder, combinations: combinations)
        report.findings = findings.order.map { findings.byKey[$0]! }.sorted { lhs, rhs in
            let kinds = FlowExploreFinding.Kind.allCases
            let left = kinds.firstIndex(of: lhs.kind)!, right = kinds.firstIndex(of: rhs.kind)!
            if left != right { return left < right }
            if lhs.route != rhs.route { return (lhs.route ?? "") < (rhs.route ?? "") }
            if lhs.location != rhs.location { return (lhs.location ?? "") < (rhs.location ?? "") }
            return lhs.message < rhs.message
        }
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// Whether two combinations have the same facts and differ only in the answers of hosts
    /// not in `asked`.
    static func answersAlike(_ lhs: Combination, _ rhs: Combination, asked: Set<String>) -> Bool {
        guard lhs.facts == rhs.facts else { return false }
        for (name, answer) in lhs.hosts where rhs.hosts[name] != answer && asked.contains(name) { return false }
        return true
    }

    /// Notes the routes `state` shows under combination `combination`.
    func note(shown state: FlowRouterState<FlowRouteValue, FlowDialogValue>, combination: Int, in shownUnder: inout [String: Set<Int>]) {
        for stack in state.stacks {
            for route in stack.routes { shownUnder[route.name, default: []].insert(combination) }
        }
    }

    /// The registered rule whose function starts last at or before `location` in its file.
    func enclosingRule(of location: String) -> String? {
        guard let colon = location.lastIndex(of: ":"), let line = Int(location[location.index(after: colon)...]) else { return nil }
        let file = location[..<colon]
        var best: (String, Int)?
        for rule in rules.keys {
            guard let split = rule.lastIndex(of: ":"), rule[..<split] == file, let start = Int(rule[rule.index(after: split)...]),
                  start <= line, start > (best?.1 ?? 0) else { continue }
            best = (rule, start)
        }
        return best?.0
    }

    /// A rule error or redirect loop seen when `step` ran from state `id`.
    ///
    /// The same failure recurs in many states: its trace is only built when it is the first or
    /// a shorter one, and a loop's key is worked out once per reason.
    func noteFailure(
        _ reason: String, graph: Graph, id: Int, step: FlowExploreStep?, labels: [String: FlowScriptValue], findings: inout Findings
    ) {
        let length = Int(graph.depths[id]) + (step == nil ? 0 : 1)
        let route = step?.route?.name ?? stacks(of: graph.stateKeys[id]).last?.routes.last?.name
        let key: String
        if let known = failureKeys[reason] {
            key = known
        } else if reason.contains("redirect loop") {
            // The loop is the same whichever operation entered it: told apart by the steps it repeats.
            let chain = reason.firstMatch(of: /redirects: (.*?);/).map { String($0.output.1) } ?? reason
            key = "loop " + Set(chain.components(separatedBy: " → ").dropFirst()).sorted().joined(separator: ", ")
            failureKeys[reason] = key
        } else {
            key = "error \(FlowExploreRuleInventory.location(in: reason) ?? reason)"
            failureKeys[reason] = key
        }
        let kind: FlowExploreFinding.Kind = key.hasPrefix("loop ") ? .redirectLoop : .ruleError
        findings.note(key, FlowExploreFinding(
            kind: kind, message: reason, route: route, location: FlowExploreRuleInventory.location(in: reason), facts: labels,
            steps: graph.steps(to: id, then: step)), length: length)
    }

    /// Checks the invariants on a new state.
    func checkInvariants(graph: Graph, id: Int, labels: [String: FlowScriptValue], findings: inout Findings) {
        guard !invariants.isEmpty else { return }
        let state = graph.state(id)
        for (invariant, error) in invariants.broken(by: state, facts: combinationList[graph.combination(id)].facts) {
            let steps = graph.steps(to: id)
            let message = error.map { "invariant '\(invariant.name)' failed to run: \($0)" }
                ?? "invariant '\(invariant.name)' (\(invariant.location)) does not hold after \(steps.map(\.description).joined(separator: ", "))"
            findings.note("invariant \(invariant.name)", FlowExploreFinding(
                kind: .invariant, message: message, route: state.stacks.last?.topRoute.name,
                location: invariant.location, invariant: invariant.name, facts: labels, steps: steps), length: steps.count)
        }
    }

    /// States from which no explored path leads back to the root state (states cut by the
    /// bounds count as leading anywhere); each trap reported at its first state.
    func noteTraps(graph: Graph, findings: inout Findings) {
        let count = graph.count
        var reverse = [[Int]](repeating: [], count: count)
        for (from, targets) in graph.edges.enumerated() {
            for target in targets { reverse[Int(target)].append(from) }
        }
        var reaches = [Bool](repeating: false, count: count)
        // The roots (one per combination explored together): operations keep the facts, so a
        // state leads back to a root only under its own facts.
        var queue = (0..<count).filter { graph.parents[$0] == nil }
        if options.factChanges {
            // What is held (a navigation, a link) stays held after the screens are back where
            // they started: the root's screens under its facts are the way back.
            let roots = Set(queue.map { Self.screens(of: graph.stateKeys[$0]) })
            queue = (0..<count).filter { graph.parents[$0] == nil || roots.contains(Self.screens(of: graph.stateKeys[$0])) }
        }
        for id in queue { reaches[id] = true }
        for id in 0..<count where graph.cut[id] && !reaches[id] {
            reaches[id] = true
            queue.append(id)
        }
        var index = 0
        while index < queue.count {
            let id = queue[index]
            index += 1
            for from in reverse[id] where !reaches[from] {
                reaches[from] = true
                queue.append(from)
            }
        }
        for id in 0..<count where !reaches[id] {
            if let parent = graph.parents[id], !reaches[Int(parent.state)] { continue }
            // A failing rule or loop that keeps the way back closed is reported on its own.
            if graph.failing[id] { continue }
            guard let front = stacks(of: graph.stateKeys[id]).last, let top = front.routes.last, let frontRoot = front.routes.first
            else { continue }
            let steps = graph.steps(to: id)
            findings.note("trap \(frontRoot.name)", FlowExploreFinding(
                kind: .trap,
                message: "after \(steps.map(\.description).joined(separator: ", ")) no allowed operation leads back to "
                    + "'\(root.name)': the \(front.style == .root ? "stack" : front.style.rawValue) showing '\(top.name)' "
                    + "cannot be left; let a rule allow a way out (dismiss, pop, setRoot) or a gesture (swipe)",
                route: top.name, facts: combinationList[Int(graph.origins[id])].labels, steps: steps), length: steps.count)
        }
    }

    /// Routes shown under some fact combinations only: for each fact whose values differ, the
    /// values under which the route is shown.
    func someFactsOnly(_ shownUnder: [String: Set<Int>], combinations: [Combination]) -> [String: [String: [FlowScriptValue]]] {
        var result: [String: [String: [FlowScriptValue]]] = [:]
        guard combinations.count > 1 else { return result }
        for (route, indexes) in shownUnder where indexes.count < combinations.count {
            var facts: [String: [FlowScriptValue]] = [:]
            let shown = indexes.sorted().map { combinations[$0].labels }
            for name in combinations[0].labels.keys.sorted() {
                let all = Set(combinations.map { $0.labels[name]! })
                var values: [FlowScriptValue] = []
                for labels in shown where !values.contains(labels[name]!) { values.append(labels[name]!) }
                if values.count < all.count { facts[name] = values.sorted { $0.luaSource < $1.luaSource } }
            }
            result[route] = facts
        }
        return result
    }
}
