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

    /// The route the operation names (or the screen it leaves).
    package var route: String
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
    /// The rule that decided (the new one's, or the old one's when the new rules allow).
    package var location: String?
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
    /// Decisions compared.
    package var decisions: Int
    /// A verdict for every declared route.
    package var routes: [String: Verdict]
    /// The changes, one per route, operation and outcome pair, ordered by route.
    package var changes: [FlowDiffChange]

    /// Whether nothing changed.
    package var isUnchanged: Bool { changes.isEmpty }

    /// The JSON of `flowstack diff --format json` (sorted keys, byte-identical between runs).
    package func json() -> String {
        struct Shape: Encodable {
            let complete: Bool
            let decisions: Int
            let routes: [String: Verdict]
            let changes: [FlowDiffChange]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(Shape(complete: complete, decisions: decisions, routes: routes, changes: changes)) else {
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
        // One numbering of routes and dialogs, so that the two explorers' state keys compare.
        self.new.coder = self.old.coder
        self.old.recordsDecisions = true
        self.new.recordsDecisions = true
    }

    /// A decision's text without rule locations, which move when a file is edited.
    static func normalized(_ decision: String) -> String {
        // Most decisions name no rule: a plain search first, the regular expression only then.
        guard decision.contains(".lua:") else { return decision }
        return decision.replacing(/[A-Za-z0-9_.\/\-]+\.lua:\d+/, with: "<rule>")
    }

    /// Explores both and compares every decision (giving up the main actor every few dozen
    /// states, as `FlowExplorer.run()` does).
    package func run() async -> FlowDiffReport {
        var complete = true
        var decisions = 0
        var groups: [String: (change: FlowDiffChange, length: Int, facts: [[String: FlowScriptValue]])] = [:]
        let options = old.options
        let combinations = old.combinationList
        var total = 0
        // As in `FlowExplorer.run()`: a combination that differs from an explored one only in
        // the answers of hosts neither exploration asked is decided exactly as that one was.
        var explored: [(index: Int, asked: Set<String>)] = []
        var alike: [(combination: Int, explored: Int)] = []
        for (index, combination) in combinations.enumerated() {
            if let same = explored.first(where: { FlowExplorer.answersAlike(combinations[$0.index], combination, asked: $0.asked) }) {
                alike.append((index, same.index))
                continue
            }
            old.askedHosts.removeAll()
            new.askedHosts.removeAll()
            guard let rootOld = try? old.prepare(combination), (try? new.prepare(combination)) != nil else { continue }
            let labels = combination.labels
            var graph = FlowExplorer.Graph()
            _ = graph.add(rootOld, key: old.key(of: rootOld, combination: old.activeCombination), parent: nil, depth: 0)
            var next = 0
            while next < graph.count {
                if total + graph.count >= options.maxStates {
                    complete = false
                    break
                }
                let id = next
                next += 1
                if id % FlowExplorer.statesBetweenYields == 0 { await Task.yield() }
                let state = graph.state(id)
                defer { graph.release(id) }
                let depth = Int(graph.depths[id])
                try? old.router.restore(state)
                try? new.router.restore(state)
                old.routerKey = nil
                new.routerKey = nil
                var steps = old.steps(from: state)
                let known = Set(steps)
                steps += new.steps(from: state).filter { !known.contains($0) }
                for step in steps {
                    let before = old.apply(step, to: state)
                    let after = new.apply(step, to: state)
                    decisions += 1
                    // Equal texts need no normalizing (most decisions): compared as they are.
                    let same = before.decision == after.decision
                    let beforeText = same ? before.decision : Self.normalized(before.decision)
                    let afterText = same ? after.decision : Self.normalized(after.decision)
                    if beforeText != afterText || before.key != after.key {
                        let direction: FlowDiffChange.Direction =
                            before.allowed && !after.allowed ? .moreRestrictive
                            : !before.allowed && after.allowed ? .morePermissive : .changed
                        let route = step.route?.name ?? Self.changedRoute(before, after)
                            ?? state.stacks.last?.topRoute.name ?? ""
                        let trace = graph.steps(to: id, then: step)
                        let groupKey = "\(route)\u{0}\(step.description)\u{0}\(beforeText)\u{0}\(afterText)"
                        let change = FlowDiffChange(
                            route: route, operation: step.description, trace: trace.map(\.description), facts: labels,
                            factPattern: [:], before: before.decision, after: after.decision, direction: direction,
                            location: after.location ?? before.location)
                        if var group = groups[groupKey] {
                            group.facts.append(labels)
                            if trace.count < group.length { group.change = change; group.length = trace.count }
                            groups[groupKey] = group
                        } else {
                            groups[groupKey] = (change, trace.count, [labels])
                        }
                    }
                    for transition in [before, after] where transition.changed {
                        if let known = graph.keys[transition.key] {
                            graph.link(id, Int(known))
                        } else if !old.withinBounds(transition.state) {
                            continue
                        } else if depth >= options.depth || total + graph.count >= options.maxStates {
                            complete = false
                        } else {
                            _ = graph.add(transition.state, key: transition.key, parent: (id, step), depth: depth + 1)
                        }
                    }
                }
            }
            total += graph.count
            explored.append((index, old.askedHosts.union(new.askedHosts)))
        }
        var changes: [FlowDiffChange] = []
        for group in groups.values {
            // The combinations decided as an explored one show its changes too.
            var facts = group.facts
            for pair in alike where group.facts.contains(combinations[pair.explored].labels) {
                facts.append(combinations[pair.combination].labels)
            }
            var change = group.change
            change.factPattern = Self.pattern(facts, combinations: combinations)
            changes.append(change)
        }
        changes.sort { ($0.route, $0.operation, $0.before, $0.after) < ($1.route, $1.operation, $1.before, $1.after) }
        var routes: [String: FlowDiffReport.Verdict] = [:]
        for name in old.manifest.routes.keys {
            let directions = Set(changes.filter { $0.route == name }.map(\.direction))
            routes[name] = directions.isEmpty ? .unchanged
                : directions == [.moreRestrictive] ? .moreRestrictive
                : directions == [.morePermissive] ? .morePermissive : .changed
        }
        return FlowDiffReport(complete: complete, decisions: decisions, routes: routes, changes: changes)
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

    /// For each fact whose values differ among `facts` less than over all combinations, the values.
    static func pattern(_ facts: [[String: FlowScriptValue]], combinations: [FlowExplorer.Combination]) -> [String: [FlowScriptValue]] {
        guard let first = combinations.first else { return [:] }
        var result: [String: [FlowScriptValue]] = [:]
        for name in first.labels.keys.sorted() {
            let all = Set(combinations.compactMap { $0.labels[name] })
            let seen = Set(facts.compactMap { $0[name] })
            if seen.count < all.count { result[name] = seen.sorted { $0.luaSource < $1.luaSource } }
        }
        return result
    }
}
