import FlowStackCore
import Foundation

extension FlowExplorer {
    /// The explored graph: one node per (fact assignment, state) pair.
    ///
    /// A state's router value is kept only until its operations are tried (`release`); after
    /// that, its key says what it shows. Memory grows with the distinct states' keys and edges.
    /// A node whose operations read an unset fact is split: its edges lead to the same state
    /// under each value of that fact.
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
        /// Nodes split on a fact they read (not explored themselves).
        var split: [Bool] = []
        /// The state and step each state was first reached from (`nil` for a root).
        var parents: [(state: Int32, step: FlowExploreStep)?] = []
        /// Steps from the root.
        var depths: [Int32] = []
        /// Operations between distinct states (fact changes are not: a trap is a state the
        /// person cannot leave).
        var edges: [[Int32]] = []
        /// States whose successors were not all explored (bounds): they may lead anywhere.
        var cut: [Bool] = []
        /// The assignment each state's trace starts from (its facts are reported).
        var origins: [Int32] = []

        /// The number of states.
        var count: Int { stateKeys.count }

        /// The fact assignment in force in state `id`.
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
            split.append(false)
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

    /// Stops a run at the next state: it reports what it found so far, "interrupted at depth k".
    package func interrupt() {
        isInterrupted = true
    }

    /// What expanding one state found: the invariants it breaks, the style rules that failed
    /// on it and each operation's outcome, or the unset fact that splits it.
    struct Expansion {
        var broken: [(invariant: FlowExploreInvariants.Invariant, error: String?)] = []
        var styleFailures: [String] = []
        var outcomes: [(step: FlowExploreStep, outcome: Outcome)] = []
        /// The unset fact (or unanswered host) an invariant, a style or an operation read: the
        /// state is explored again under each of its values, and `outcomes` is dropped.
        var split: Int?
    }

    /// Expands state `state` (key `key`) under its assignment (active): its invariants and
    /// styles, then every operation until one reads an unset fact.
    ///
    /// The state's copies under each value of that fact run the same operations again: those
    /// that read none of what tells them apart come from the memo, so a late read costs the
    /// operations that read it only.
    func expand(_ state: FlowRouterState<FlowRouteValue, FlowDialogValue>, key: StateKey) -> Expansion {
        var expansion = Expansion()
        router.restoreValidated(state, held: options.factChanges)
        routerKey = key
        beginReads()
        _ = newErrorDiagnostics()
        let steps = self.steps(from: state)
        expansion.broken = invariants.isEmpty ? [] : invariants.broken(by: state, facts: assignments.facts(key.combination))
        expansion.styleFailures = newErrorDiagnostics().map(\.description)
        if let variable = unsetReads.first {
            expansion.split = variable
            return expansion
        }
        let screens = memo.screensNumber(key.codes)
        // By position (so are the outcomes followed in `visit`): a debug build's iterators cost
        // more than a memo lookup (with the routes read from keys in `add`: streaming fixture,
        // 2.8 -> 2.3 processor seconds).
        var number = 0
        while number < steps.count {
            let step = steps[number]
            let outcome = self.outcome(of: step, number: number, from: state, key: key, screens: screens)
            number += 1
            if let variable = outcome.transition.reads.first {
                expansion.split = variable
                break
            }
            expansion.outcomes.append((step, outcome))
        }
        return expansion
    }

    /// One run's progress: the graph, the findings and the counts so far.
    struct Run {
        var report = FlowExploreReport()
        var findings = Findings()
        var graph = Graph()
        /// Routes (by number) shown by states explored in finished depths, with the assignments
        /// they show under.
        var shownUnder: [UInt32: Set<Int>] = [:]
        /// The same, for the depth being explored.
        var layerShown: [UInt32: Set<Int>] = [:]
        var usedAssignments = Set<Int>()
        /// With fact changes, the first state showing each screens (what is held stays held on
        /// the way back: a state past the depth that shows a known state's screens leads there).
        var screensIndex: [StateKey: Int32] = [:]
        /// Routes (by number) some reached state shows (under any facts).
        var reached = Set<UInt32>()
        /// Where the breadth-first walk is.
        var frontier = Frontier()
    }

    /// Where a breadth-first walk is (an exploration's, or a diff's over both versions).
    struct Frontier {
        /// The states of the depth being explored (splits append to it), and of the next one.
        var layer: [Int] = []
        var next: [Int] = []
        var depth = 0
        /// Whether a bound left a state or an operation's successor out.
        var truncated = false
        var budgetReached = false
        var stoppedAt: Int?
        /// Operations tried so far.
        var tried = 0
        let started = Date()
        /// The router states of the next depth's states, by screens (`successor(of:)`).
        var successors: [[UInt32]: SuccessorState] = [:]

        /// Moves on to the next depth's states.
        mutating func startNextDepth() {
            layer = next
            successors = [:]
            if !layer.isEmpty { depth += 1 }
        }
    }

    /// Explores every (facts, state) pair breadth-first within the bounds and reports the
    /// findings.
    ///
    /// Facts start unset: a state whose invariants, styles or operations read an unset fact
    /// (or call an unanswered host) is split into one state per value, explored at the same
    /// depth. Runs on the main actor and gives it up every few dozen states, so an app's or a
    /// test run's other main-actor work goes on while a large exploration runs.
    package func run() async -> FlowExploreReport {
        var run = Run()
        run.report.factCombinations = assignments.combinationCount
        let rootState: FlowRouterState<FlowRouteValue, FlowDialogValue>
        do {
            rootState = try prepare(assignments.root)
        } catch {
            run.findings.note("facts \(error.message)", FlowExploreFinding(
                kind: .ruleError, message: "the facts could not be set: \(error.description)", facts: assignments.labels(assignments.root)),
                length: 0)
            run.report.findings = run.findings.order.map { run.findings.byKey[$0]! }
            return run.report
        }
        run.frontier.layer = [add(rootState, key: key(of: rootState, combination: assignments.root), parent: nil, depth: 0, to: &run)]
        // Splits may go past --max-states to finish a depth, not past twice it.
        let hardCap = options.maxStates > Int.max / 2 ? Int.max : options.maxStates * 2
        var expanded = 0
        explore: while !run.frontier.layer.isEmpty {
            run.frontier.next = []
            run.layerShown = [:]
            var index = 0
            while index < run.frontier.layer.count {
                if isInterrupted || run.graph.count >= hardCap {
                    for id in run.frontier.layer[index...] + run.frontier.next { run.graph.cut[id] = true }
                    run.frontier.stoppedAt = run.frontier.depth
                    break explore
                }
                let id = run.frontier.layer[index]
                index += 1
                expanded += 1
                if expanded % Self.statesBetweenYields == 0 { await Task.yield() }
                visit(id, in: &run)
            }
            // This depth is explored under every assignment: what it shows is claimed.
            for (route, shown) in run.layerShown { run.shownUnder[route, default: []].formUnion(shown) }
            if run.frontier.budgetReached {
                for id in run.frontier.next { run.graph.cut[id] = true }
                if !run.frontier.next.isEmpty { run.frontier.stoppedAt = run.frontier.depth + 1 }
                break
            }
            run.frontier.startNextDepth()
        }
        return finish(&run)
    }

    /// Adds a state to the run's graph and notes the routes it shows.
    func add(
        _ state: FlowRouterState<FlowRouteValue, FlowDialogValue>, key: StateKey, parent: (Int, FlowExploreStep)?, depth: Int,
        origin: Int? = nil, to run: inout Run
    ) -> Int {
        let id = run.graph.add(state, key: key, parent: parent, depth: depth, origin: origin)
        // Read from the key's numbers: a stack's routes as an array cost more than the rest of
        // adding a state in a debug build.
        Self.forEachStackRoute(in: key) { run.reached.insert($0) }
        if options.factChanges, run.screensIndex[Self.screens(of: key)] == nil { run.screensIndex[Self.screens(of: key)] = Int32(id) }
        return id
    }

    /// Explores state `id` of the depth being explored: splits it on the unset fact it read, or
    /// notes what its operations found and queues their new states.
    func visit(_ id: Int, in run: inout Run) {
        let assignment = run.graph.combination(id)
        let state = run.graph.state(id)
        defer { run.graph.release(id) }
        do {
            try activate(assignment)
        } catch {
            return
        }
        let key = run.graph.stateKeys[id]
        let expansion = expand(state, key: key)
        run.frontier.tried += expansion.outcomes.count
        if let onProgress, run.frontier.tried / 512 != (run.frontier.tried - expansion.outcomes.count) / 512 {
            onProgress(Progress(
                depth: run.frontier.depth, states: run.graph.count, transitions: run.frontier.tried, assignments: assignments.count,
                elapsed: Date().timeIntervalSince(run.frontier.started)))
        }
        if let variable = expansion.split {
            split(id, state: state, on: variable, in: &run)
            return
        }
        // Every operation ran with the facts it read set: the state is explored.
        run.report.states += 1
        run.usedAssignments.insert(assignment)
        Self.forEachStackRoute(in: key) { run.layerShown[$0, default: []].insert(assignment) }
        for (invariant, error) in expansion.broken {
            let steps = run.graph.steps(to: id)
            let message = error.map { "invariant '\(invariant.name)' failed to run: \($0)" }
                ?? "invariant '\(invariant.name)' (\(invariant.location)) does not hold after \(steps.map(\.description).joined(separator: ", "))"
            run.findings.note("invariant \(invariant.name)", FlowExploreFinding(
                kind: .invariant, message: message, route: state.stacks.last?.topRoute.name,
                location: invariant.location, invariant: invariant.name, facts: assignments.labels(Int(run.graph.origins[id])),
                steps: steps), length: steps.count)
        }
        for failure in expansion.styleFailures {
            noteFailure(failure, graph: run.graph, id: id, step: nil, findings: &run.findings)
        }
        var index = 0
        while index < expansion.outcomes.count {
            follow(expansion.outcomes[index].step, expansion.outcomes[index].outcome, from: id, state: state, in: &run)
            index += 1
        }
    }

    /// An invariant, a style or an operation of state `id` read an unset fact: the state is
    /// explored again under each of its values (at this depth), and what it did without them is
    /// dropped.
    func split(_ id: Int, state: FlowRouterState<FlowRouteValue, FlowDialogValue>, on variable: Int, in run: inout Run) {
        _ = newErrorDiagnostics()
        run.graph.split[id] = true
        let key = run.graph.stateKeys[id]
        let origin = Int(run.graph.origins[id])
        for value in assignments.variables[variable].values.indices {
            let child = assignments.assigning(key.combination, variable: variable, value: value)
            let childKey = StateKey(codes: key.codes, combination: child)
            if let known = run.graph.keys[childKey] {
                run.graph.link(id, Int(known))
                continue
            }
            let childOrigin = assignments.value(origin, variable) == nil
                ? assignments.assigning(origin, variable: variable, value: value) : origin
            let parent = run.graph.parents[id].map { (Int($0.state), $0.step) }
            let new = add(state, key: childKey, parent: parent, depth: run.frontier.depth, origin: childOrigin, to: &run)
            run.graph.link(id, new)
            run.frontier.layer.append(new)
        }
    }

    /// Notes what `step` from state `id` found (hosts without answers, failures) and where it
    /// leads: a known state, one the bounds leave out, or a new one of the next depth.
    func follow(
        _ step: FlowExploreStep, _ outcome: Outcome, from id: Int, state: FlowRouterState<FlowRouteValue, FlowDialogValue>,
        in run: inout Run
    ) {
        let transition = outcome.transition
        run.report.transitions += 1
        if !transition.locations.isEmpty { decidedLocations.formUnion(transition.locations) }
        for name in outcome.unanswered {
            run.findings.note("host \(name)", FlowExploreFinding(
                kind: .unansweredHost,
                message: "host.\(name) was called with no answers to explore: list its outcomes in routes.lua, "
                    + "as in explore = { hostAnswers = { \(name) = { true, false } } }",
                route: step.route?.name, facts: assignments.labels(Int(run.graph.origins[id])), steps: run.graph.steps(to: id, then: step)),
                length: run.frontier.depth + 1)
        }
        if !transition.failures.isEmpty || !outcome.styleFailures.isEmpty {
            run.graph.failing[id] = true
            for failure in transition.failures + outcome.styleFailures where !failure.contains(Self.unansweredMarker) {
                noteFailure(failure, graph: run.graph, id: id, step: step, findings: &run.findings)
            }
        }
        guard transition.changed else { return }
        let isFactChange = if case .setFact = step { true } else { false }
        if let known = run.graph.keys[transition.key] {
            if !isFactChange { run.graph.link(id, Int(known)) }
        } else if !withinBounds(transition.key) {
            // Max-stack and max-presented are constraints on the states explored: leaving them
            // out does not make the exploration incomplete.
            return
        } else if run.frontier.depth >= options.depth || run.graph.count >= options.maxStates {
            run.frontier.truncated = true
            if run.frontier.depth < options.depth {
                // A state whose successor the budget left out may lead anywhere (no trap); past
                // the depth, the ways back are those explored.
                run.frontier.budgetReached = true
                run.graph.cut[id] = true
            }
            // Past the depth: showing a known state's screens (only what is held differs), it
            // leads back as that one does.
            if options.factChanges, !isFactChange, let same = run.screensIndex[Self.screens(of: transition.key)] {
                run.graph.link(id, Int(same))
            }
        } else {
            let successor = successor(of: outcome, step: step, from: state, key: run.graph.stateKeys[id], known: &run.frontier.successors)
            let new = add(successor, key: transition.key, parent: (id, step), depth: run.frontier.depth + 1, to: &run)
            if !isFactChange { run.graph.link(id, new) }
            run.frontier.next.append(new)
            run.report.diameter = max(run.report.diameter, run.frontier.depth + 1)
        }
    }

    /// The report of a finished (or stopped) run: how complete it is, its traps, and the
    /// unreachable routes and dead rules of what it explored completely.
    func finish(_ run: inout Run) -> FlowExploreReport {
        var report = run.report
        report.complete = !run.frontier.truncated && run.frontier.stoppedAt == nil
        report.completeDepth = run.frontier.stoppedAt.map { max($0 - 1, 0) } ?? (report.complete ? report.diameter : min(run.frontier.depth, options.depth))
        report.interruptedAtDepth = isInterrupted ? run.frontier.stoppedAt : nil
        report.assignments = run.usedAssignments.count
        noteTraps(graph: run.graph, findings: &run.findings)
        // Unreachable routes and dead rules are claimed of what was explored completely: the
        // whole space, or every state within `completeDepth` steps.
        if report.complete || report.completeDepth > 0 {
            noteUnexplored(reached: Set(run.reached.map { coder.route($0).name }), report: report, findings: &run.findings)
        }
        var shownUnder: [String: Set<Int>] = [:]
        for (code, assignments) in run.shownUnder { shownUnder[coder.route(code).name, default: []].formUnion(assignments) }
        report.someFactsOnly = someFactsOnly(shownUnder)
        let kinds = FlowExploreFinding.Kind.allCases
        report.findings = run.findings.order.map { run.findings.byKey[$0]! }.sorted { lhs, rhs in
            let left = kinds.firstIndex(of: lhs.kind)!, right = kinds.firstIndex(of: rhs.kind)!
            if left != right { return left < right }
            if lhs.route != rhs.route { return (lhs.route ?? "") < (rhs.route ?? "") }
            if lhs.location != rhs.location { return (lhs.location ?? "") < (rhs.location ?? "") }
            return lhs.message < rhs.message
        }
        report.seconds = Date().timeIntervalSince(run.frontier.started)
        return report
    }

    /// The declared routes no explored state shows and the rules that never decided anything,
    /// "within k steps of the root" on an incomplete run.
    func noteUnexplored(reached: Set<String>, report: FlowExploreReport, findings: inout Findings) {
        let within = report.complete ? "" : " within \(report.completeDepth) step\(report.completeDepth == 1 ? "" : "s") of the root"
        let further = report.complete ? "" : " (the exploration is complete to depth \(report.completeDepth) only: raise --depth or --max-states to look further)"
        for name in manifest.routes.keys.sorted() where !reached.contains(name) {
            findings.note("unreachable \(name)", FlowExploreFinding(
                kind: .unreachable,
                message: "no explored state\(within) shows '\(name)' under any facts: a rule refuses every way to it, "
                    + "or nothing opens it within the bounds\(further)",
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
                message: "\(what) never blocked, redirected or refused anything in any explored state\(within): remove it, "
                    + "or list the facts it needs in the manifest's explore section\(further)",
                location: location), length: 0)
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
        _ reason: String, graph: Graph, id: Int, step: FlowExploreStep?, findings: inout Findings
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
            kind: kind, message: reason, route: route, location: FlowExploreRuleInventory.location(in: reason),
            facts: assignments.labels(Int(graph.origins[id])),
            steps: graph.steps(to: id, then: step)), length: length)
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
        // The way back: the root's screens, under any facts (a branch split on a fact after it
        // left the root comes back to the root under that fact's value). With fact changes,
        // what is held (a navigation, a link) stays held after the screens are back where they
        // started.
        let roots = Set((0..<count).filter { graph.parents[$0] == nil }.map { Self.screensOnly(of: graph.stateKeys[$0], held: options.factChanges) })
        var queue = (0..<count).filter {
            graph.parents[$0] == nil || roots.contains(Self.screensOnly(of: graph.stateKeys[$0], held: options.factChanges))
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
        for id in 0..<count where !reaches[id] && !graph.split[id] {
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
                route: top.name, facts: assignments.labels(Int(graph.origins[id])), steps: steps), length: steps.count)
        }
    }

    /// Routes shown under some fact assignments only: for each fact (or host answer) whose
    /// values differ, the values under which the route is shown.
    func someFactsOnly(_ shownUnder: [String: Set<Int>]) -> [String: [String: [FlowScriptValue]]] {
        var result: [String: [String: [FlowScriptValue]]] = [:]
        for (route, ids) in shownUnder {
            let pattern = assignments.pattern(ids)
            if !pattern.isEmpty { result[route] = pattern }
        }
        return result
    }
}
