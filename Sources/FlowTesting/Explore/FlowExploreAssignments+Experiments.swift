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
    /// Serves experiments as facts are served: each read of one goes through `read(_:)`, which
    /// records it (the memo's key) and gives the variant the active assignment sets, or raises
    /// the split marker where it sets none.
    func exploreExperiments() {
        guard !manifest.experiments.isEmpty else { return }
        engine.onExperimentRead = { [unowned self] name in
            guard let index = self.assignments.index(of: "experiments.\(name)") else { return .success(nil) }
            return self.read(index).map { value in
                guard case .string(let variant)? = value, variant != FlowExperiment.notEnrolled else { return nil }
                return variant
            }
        }
    }
}
