import FlowScript
import FlowStackCore
import Foundation

/// The facts and host answers exploration assigns, and the partial assignments met, numbered.
///
/// Exploration starts with every fact of more than one explored value unset and every host
/// unanswered; a branch is split only when a rule, a style or an invariant reads one (its
/// decision is then explored under each value). A decision that never read a fact is the same
/// under each of its values, so combinations no rule tells apart are explored once, and no
/// product of the facts is ever built. The two explorers of a `diff` share one table.
@MainActor
final class FlowExploreAssignments {
    /// A fact (or a host's answer) with the values explored.
    struct Variable {
        /// The fact's name, or the host's (`requestPhotoAccess`).
        let name: String
        /// Whether it is a host function's answer.
        let isHost: Bool
        /// The values explored, in the manifest's order (booleans: false, true).
        let values: [FlowScriptValue]

        /// How it is labelled in reports: the fact's name, or `host.<name>`.
        var label: String { isHost ? "host.\(name)" : name }
    }

    /// The facts and hosts that may be split on: facts first, then hosts, each sorted by name.
    let variables: [Variable]
    /// Facts with one explored value, always set.
    let constants: [String: FlowScriptValue]
    /// Every declared fact's default (the value a report gives a fact no rule read).
    let defaults: [String: FlowScriptValue]
    /// Each variable's index by name (facts) and by `host.<name>` (hosts).
    private let indexes: [String: Int]
    /// The assignments met: a value index per variable, -1 while unset.
    private(set) var values: [[Int8]] = []
    private var ids: [[Int8]: Int] = [:]

    /// The variables of a manifest: booleans both ways, other facts the values `explore.facts`
    /// lists (their default otherwise), hosts the answers `explore.hostAnswers` lists.
    init(manifest: FlowManifest) {
        var variables: [Variable] = []
        var constants: [String: FlowScriptValue] = [:]
        for name in manifest.facts.keys.sorted() {
            let declared = manifest.facts[name]!
            var domain: [FlowScriptValue]
            if let listed = manifest.explore.facts[name] {
                domain = []
                for value in listed where !domain.contains(value) { domain.append(value) }
            } else if case .bool = declared {
                domain = [false, true]
            } else {
                domain = [declared]
            }
            if domain.count > 1 {
                variables.append(Variable(name: name, isHost: false, values: domain))
            } else if let only = domain.first {
                constants[name] = only
            }
        }
        for name in manifest.explore.hostAnswers.keys.sorted() {
            var domain: [FlowScriptValue] = []
            for value in manifest.explore.hostAnswers[name]! where !domain.contains(value) { domain.append(value) }
            if !domain.isEmpty { variables.append(Variable(name: name, isHost: true, values: domain)) }
        }
        self.variables = Array(variables.prefix(Int(Int8.max)))
        self.constants = constants
        defaults = manifest.facts
        indexes = Dictionary(uniqueKeysWithValues: self.variables.enumerated().map { ($1.label, $0) })
        _ = id(of: [Int8](repeating: -1, count: self.variables.count))
    }

    /// The assignment exploration starts from: nothing read yet.
    var root: Int { 0 }

    /// The number of assignments met.
    var count: Int { values.count }

    /// How many full combinations of facts and host answers there are (saturating): what
    /// exploring them one by one would cost.
    var combinationCount: Int {
        variables.reduce(1) { product, variable in
            let (result, overflow) = product.multipliedReportingOverflow(by: variable.values.count)
            return overflow ? Int.max : result
        }
    }

    /// The number of an assignment, numbering it when it is new.
    func id(of assignment: [Int8]) -> Int {
        if let id = ids[assignment] { return id }
        let id = values.count
        values.append(assignment)
        ids[assignment] = id
        return id
    }

    /// Assignment `id` with `variable` set to its value number `value`.
    func assigning(_ id: Int, variable: Int, value: Int) -> Int {
        var assignment = values[id]
        assignment[variable] = Int8(value)
        return self.id(of: assignment)
    }

    /// The index of the fact `name`, or of the host `host.<name>`, if it is split on.
    func index(of label: String) -> Int? { indexes[label] }

    /// The value number of `variable` in assignment `id` (nil while unset).
    func value(_ id: Int, _ variable: Int) -> Int? {
        let value = values[id][variable]
        return value < 0 ? nil : Int(value)
    }

    /// The facts assignment `id` sets: the constants and the facts read so far.
    func facts(_ id: Int) -> [String: FlowScriptValue] {
        var facts = constants
        for (index, variable) in variables.enumerated() where !variable.isHost {
            if let value = value(id, index) { facts[variable.name] = variable.values[value] }
        }
        return facts
    }

    /// The host answers assignment `id` gives.
    func hosts(_ id: Int) -> [String: FlowScriptValue] {
        var hosts: [String: FlowScriptValue] = [:]
        for (index, variable) in variables.enumerated() where variable.isHost {
            if let value = value(id, index) { hosts[variable.name] = variable.values[value] }
        }
        return hosts
    }

    /// One full assignment that assignment `id` stands for, as reported: every fact (those no
    /// rule read at their default), then the host answers given as `host.<name>`.
    func labels(_ id: Int) -> [String: FlowScriptValue] {
        var labels = defaults.merging(facts(id)) { $1 }
        for (name, value) in hosts(id) { labels["host.\(name)"] = value }
        return labels
    }

    /// For each variable whose values among `ids` (an unset one standing for all of them) are
    /// fewer than its explored values, those values, by label.
    func pattern(_ ids: some Sequence<Int>) -> [String: [FlowScriptValue]] {
        var seen = [Set<Int>](repeating: [], count: variables.count)
        for id in ids {
            for (index, variable) in variables.enumerated() {
                if let value = value(id, index) { seen[index].insert(value) } else { seen[index].formUnion(variable.values.indices) }
            }
        }
        var result: [String: [FlowScriptValue]] = [:]
        for (index, variable) in variables.enumerated() where seen[index].count < variable.values.count {
            result[variable.label] = seen[index].sorted().map { variable.values[$0] }
        }
        return result
    }
}
