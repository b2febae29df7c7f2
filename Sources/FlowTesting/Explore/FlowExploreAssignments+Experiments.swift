import FlowScript
import FlowStackCore
import Foundation

extension FlowExploreAssignments {
    /// Each declared experiment as a variable split on like a fact: every variant, then
    /// `"none"` (not enrolled). A branch is split only when a rule reads the experiment for a
    /// unit its audience admits (an audience answers from the facts, which are split first).
    static func experimentVariables(_ manifest: FlowManifest) -> [Variable] {
        manifest.experiments.keys.sorted().map { name in
            let values = manifest.experiments[name]!.variantNames + [FlowExperiment.notEnrolled]
            return Variable(name: name, isHost: false, values: values.map { .string($0) }, isExperiment: true)
        }
    }

    /// The variants assignment `id` forces, by experiment (`nil`: not enrolled), for the
    /// experiments read so far.
    func experiments(_ id: Int) -> [String: String?] {
        var experiments: [String: String?] = [:]
        for (index, variable) in variables.enumerated() where variable.isExperiment {
            guard let value = value(id, index), case .string(let variant) = variable.values[value] else { continue }
            experiments[variable.name] = .some(variant == FlowExperiment.notEnrolled ? nil : variant)
        }
        return experiments
    }
}

extension FlowExplorer {
    /// Splits on experiments as on facts: a read of one the active assignment does not force
    /// raises the split marker (`unsetMarker`).
    func exploreExperiments() {
        guard !manifest.experiments.isEmpty else { return }
        engine.onUnsetExperiment = { [unowned self] name in
            guard let index = self.assignments.index(of: "experiments.\(name)"), self.activeAssignment >= 0 else { return nil }
            self.unsetReads.append(index)
            return FlowScriptError(kind: .runtime, message: "experiments.\(name) \(Self.unsetMarker)")
        }
    }

    /// Forces the variants assignment `id` gives (the others are unset: read, they split).
    func activateExperiments(_ id: Int) throws(FlowScriptError) {
        guard !manifest.experiments.isEmpty else { return }
        engine.clearExperimentOverride()
        for (name, variant) in assignments.experiments(id).sorted(by: { $0.key < $1.key }) {
            try engine.overrideExperiment(name, variant: variant)
        }
    }
}
