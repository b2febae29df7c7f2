import FlowLua
import FlowStackCore
import Foundation

/// An experiment's assignment a rule read for the first time for a unit in this process: what
/// the app's analytics record (`engine.onExposure { exposure in ... }`).
public struct FlowExposure: Hashable, Sendable {
    /// The experiment's name.
    public let experiment: String
    /// The variant read.
    public let variant: String
    /// The unit id (`setExperimentUnit`), or `nil` when an override enrolled a unit-less app.
    public let unit: String?
    /// The route of the navigation whose rule read it (`nil` outside a navigation, or for a
    /// kind without a route).
    public let route: String?
    /// The navigation's kind (`push`, `sheet`, ...), or where else rules read it: `style`,
    /// `dialog`, or `rules` (a deep link handler or a facts rule).
    public let kind: String

    /// Creates an exposure.
    public init(experiment: String, variant: String, unit: String?, route: String?, kind: String) {
        self.experiment = experiment
        self.variant = variant
        self.unit = unit
        self.route = route
        self.kind = kind
    }
}

/// The engine's experiment state: the unit, the overrides, the caches and what was exposed.
struct FlowExperimentState {
    /// The unit id assignments hash (`nil`: nothing enrolls but overrides).
    var unit: String?
    /// Forced variants by experiment (a `nil` variant: forced not enrolled).
    var overrides: [String: String?] = [:]
    /// The hashed (or overridden) variant by experiment, for the current unit and overrides.
    var assignments: [String: String?] = [:]
    /// The audience's answer by experiment, for the current facts.
    var eligibility: [String: Bool] = [:]
    /// Exposures already reported in this process.
    var exposed: Set<FlowExposure> = []
    /// The navigation being decided (route, kind), while a decision runs.
    var decision: (route: String?, kind: String)?
    /// Where rules read outside a decision (`style`, `dialog`, `rules`).
    var elsewhere = "rules"
    /// What the navigations decided since the last `takeExperimentReads()` read (enrolled only).
    var reads: [String: String] = [:]
}

extension FlowRulesEngine {
    /// The unit id experiments are assigned by, or `nil` (not enrolled, but for overrides).
    public var experimentUnit: String? { experimentState.unit }

    /// Sets the unit id experiments are assigned by (a user or device id; `nil` or an empty
    /// string: no unit, so nothing is enrolled but what an override forces).
    public func setExperimentUnit(_ unit: String?) {
        let unit = unit.flatMap { $0.isEmpty ? nil : $0 }
        guard unit != experimentState.unit else { return }
        experimentState.unit = unit
        experimentState.assignments.removeAll()
        styleCache = FlowStyleCache()
    }

    /// Forces an experiment's variant for this app (QA, tests): it wins over the hash, and is
    /// exposed like a hashed one; the audience still decides who is eligible. `nil` forces "not
    /// enrolled".
    ///
    /// - Throws: with a manifest, an undeclared experiment or variant (with "did you mean").
    public func overrideExperiment(_ name: String, variant: String?) throws(FlowScriptError) {
        if let problem = experimentProblem(name, variant: variant) { throw FlowScriptError(kind: .typeError, message: problem) }
        experimentState.overrides[name] = .some(variant)
        experimentState.assignments[name] = nil
        styleCache = FlowStyleCache()
    }

    /// Removes an experiment's override (`nil`: every override): the hash assigns it again.
    public func clearExperimentOverride(_ name: String? = nil) {
        if let name { experimentState.overrides[name] = nil } else { experimentState.overrides.removeAll() }
        experimentState.assignments.removeAll()
        styleCache = FlowStyleCache()
    }

    /// Forgets what was exposed: the next read of each assignment is reported again (a flow
    /// test starts as a fresh process).
    package func forgetExposures() {
        experimentState.exposed.removeAll()
    }

    /// The forced variants by experiment (a `nil` variant: forced not enrolled).
    public var experimentOverrides: [String: String?] { experimentState.overrides }

    /// The experiments a navigation's rules read since the router last asked (its history entry
    /// records them): experiment → variant, the enrolled ones.
    public func takeExperimentReads() -> [String: String] {
        guard !experimentState.reads.isEmpty else { return [:] }
        defer { experimentState.reads.removeAll() }
        return experimentState.reads
    }

    /// The manifest's problem with an experiment name, or with a variant of it (`nil`: not
    /// enrolled); `nil` when both are declared.
    func experimentProblem(_ name: String, variant: String?) -> String? {
        guard let manifest = configuration.manifest else {
            return "unknown experiment '\(name)': experiments are declared in routes.lua (experiments = { \(name) = { variants = { ... }, salt = \"...\" } })"
        }
        if let variant { return manifest.problem(withVariant: variant, of: name) }
        return manifest.problem(withExperiment: name)
    }

    /// What `experiments.<name>` reads: the variant, or `nil`, or `ask` when the audience must
    /// say first (the prelude runs it and reads again with its answer).
    func readExperiment(_ name: String, eligible: Bool?) throws(FlowScriptError) -> (variant: String?, ask: Bool) {
        guard let experiment = configuration.manifest?.experiments[name] else {
            throw FlowScriptError(kind: .undeclaredGlobal, message: experimentProblem(name, variant: nil)!)
        }
        if let eligible {
            experimentState.eligibility[name] = eligible
        } else if experimentState.eligibility[name] == nil {
            if ruleSet?.audienceNames.contains(name) == true { return (nil, true) }
            experimentState.eligibility[name] = true
        }
        guard experimentState.eligibility[name] == true else { return (nil, false) }
        let variant: String?
        if let cached = experimentState.assignments[name] {
            variant = cached
        } else {
            if let forced = experimentState.overrides[name] {
                variant = forced
            } else {
                if let error = onUnsetExperiment?(name) { throw error }
                variant = experimentState.unit.flatMap { experiment.variant(forUnit: $0) }
            }
            experimentState.assignments[name] = .some(variant)
        }
        guard let variant else { return (nil, false) }
        let place = experimentState.decision
        if place != nil { experimentState.reads[name] = variant }
        let exposure = FlowExposure(
            experiment: name, variant: variant, unit: experimentState.unit, route: place?.route, kind: place?.kind ?? experimentState.elsewhere)
        // Once per (experiment, unit, variant): the route and kind are those of the first read.
        let key = FlowExposure(experiment: name, variant: variant, unit: exposure.unit, route: nil, kind: "")
        if experimentState.exposed.insert(key).inserted { onExposure?(exposure) }
        return (variant, false)
    }

    /// Facts changed: the audiences answer again.
    func experimentFactsChanged() {
        if !experimentState.eligibility.isEmpty { experimentState.eligibility.removeAll() }
    }

    /// Installs `experiments`, read through the prelude's `readExperiment` (upvalue-free: the
    /// proxy's missing-key handler), and `__flow_native.experimentRead(name [, eligible])`.
    func registerExperimentNative(in vm: LuaVM) throws(FlowScriptError) {
        try vm.register("__flow_native.experimentRead") { [unowned self] arguments, writer in
            let name = try arguments.string(at: 1)
            guard configuration.manifest?.experiments[name] != nil else {
                // The prelude raises it at the reading rule's line.
                writer.push(nil as String?)
                writer.push(nil as String?)
                writer.push(experimentProblem(name, variant: nil)!)
                return 3
            }
            let eligible: Bool? = arguments.count >= 2 && arguments.type(at: 2) == .boolean ? arguments.isTruthy(at: 2) : nil
            let (variant, ask) = try readExperiment(name, eligible: eligible)
            writer.push(variant)
            if ask { writer.push(true); return 2 }
            return 1
        }
        try vm.register("__flow_native.experimentProblem", returning: { [unowned self] arguments in
            [experimentProblem(try arguments.string(at: 1), variant: nil).map(LuaValue.string) ?? .nil]
        })
    }

    /// Marks the start of a decision of `request`: rules reading experiments now read them for
    /// its route and kind (exposures, history).
    func beginExperimentDecision(_ request: FlowRuleRequest) {
        experimentState.decision = (request.route?.name ?? request.routes?.first?.name, request.kind.rawValue)
    }

    /// Marks the end of a decision.
    func endExperimentDecision() {
        experimentState.decision = nil
    }
}
