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
    package init(experiment: String, variant: String, unit: String?, route: String?, kind: String) {
        self.experiment = experiment
        self.variant = variant
        self.unit = unit
        self.route = route
        self.kind = kind
    }
}

/// The engine's experiment state: the unit, the overrides, the caches and what was exposed.
///
/// Every declared experiment has a slot (by its index in byte order of the names) caching the
/// audience's answer for the current facts, the variant for the current unit and overrides, and
/// whether that variant was exposed: a read that finds its slot filled allocates nothing.
struct FlowExperimentState {
    /// One experiment's caches.
    struct Slot {
        /// The audience's answer for the current facts (`nil`: not asked yet).
        var eligible: Bool?
        /// Whether `variant` holds the assignment for the current unit and overrides.
        var assigned = false
        /// The assigned variant's index in the experiment's variants (-1: not enrolled).
        var variant = -1
        /// Whether the assigned variant's exposure was reported (or was before, for this unit).
        var exposed = false
    }

    /// The declared experiments, in byte order of their names.
    let experiments: [FlowExperiment]
    /// Each experiment's index by name.
    let index: [String: Int]
    var slots: [Slot]
    /// The unit id assignments hash (`nil`: nothing enrolls but overrides).
    var unit: String?
    /// Forced variants by experiment (a `nil` variant: forced not enrolled).
    var overrides: [String: String?] = [:]
    /// Exposures already reported in this process (their route and kind left out).
    var exposed: Set<FlowExposure> = []
    /// The navigation being decided (route, kind), while a decision runs.
    var decision: (route: String?, kind: String)?
    /// Where rules read outside a decision (`style`, `dialog`, `rules`).
    var elsewhere = "rules"
    /// The variant index each experiment was read as since the last `takeExperimentReads()`
    /// (-1: not read), and how many were read.
    var reads: [Int]
    var readCount = 0
    /// The last reads taken and the dictionary made of them: the same reads give the same
    /// dictionary, shared, not a new one per navigation.
    var lastReads: (reads: [Int], value: [String: String]) = ([], [:])

    init(manifest: FlowManifest?) {
        experiments = (manifest?.experiments.values.map { $0 } ?? []).sorted {
            Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8))
        }
        index = Dictionary(uniqueKeysWithValues: experiments.enumerated().map { ($1.name, $0) })
        slots = Array(repeating: Slot(), count: experiments.count)
        reads = Array(repeating: -1, count: experiments.count)
    }

    /// Forgets every assignment (a new unit, new overrides).
    mutating func forgetAssignments() {
        for slot in slots.indices {
            slots[slot].assigned = false
            slots[slot].exposed = false
        }
    }

    /// Forgets every audience's answer (new facts, new rules).
    mutating func forgetEligibility() {
        for slot in slots.indices { slots[slot].eligible = nil }
    }
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
        experimentState.forgetAssignments()
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
        if let slot = experimentState.index[name] {
            experimentState.slots[slot].assigned = false
            experimentState.slots[slot].exposed = false
        }
        styleCache = FlowStyleCache()
    }

    /// Removes an experiment's override (`nil`: every override): the hash assigns it again.
    public func clearExperimentOverride(_ name: String? = nil) {
        if let name { experimentState.overrides[name] = nil } else { experimentState.overrides.removeAll() }
        experimentState.forgetAssignments()
        styleCache = FlowStyleCache()
    }

    /// Forgets what was exposed: the next read of each assignment is reported again (a flow
    /// test starts as a fresh process).
    package func forgetExposures() {
        experimentState.exposed.removeAll()
        for slot in experimentState.slots.indices { experimentState.slots[slot].exposed = false }
    }

    /// The forced variants by experiment (a `nil` variant: forced not enrolled).
    public var experimentOverrides: [String: String?] { experimentState.overrides }

    /// The experiments a navigation's rules read since the router last asked (its history entry
    /// records them): experiment → variant, the enrolled ones.
    public func takeExperimentReads() -> [String: String] {
        guard experimentState.readCount > 0 else { return [:] }
        defer {
            for slot in experimentState.reads.indices { experimentState.reads[slot] = -1 }
            experimentState.readCount = 0
        }
        if experimentState.reads == experimentState.lastReads.reads { return experimentState.lastReads.value }
        var value: [String: String] = [:]
        for (slot, variant) in experimentState.reads.enumerated() where variant >= 0 {
            let experiment = experimentState.experiments[slot]
            value[experiment.name] = experiment.variants[variant].name
        }
        experimentState.lastReads = (experimentState.reads, value)
        return value
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

    /// What `experiments.<name>` reads (the experiment at `slot`): the variant, or `nil`, or
    /// `ask` when the audience must say first (the prelude runs it and reads again with its
    /// answer, `eligible`).
    func readExperiment(slot: Int, eligible: Bool?) throws(FlowScriptError) -> (variant: String?, ask: Bool) {
        if let eligible {
            experimentState.slots[slot].eligible = eligible
        } else if experimentState.slots[slot].eligible == nil || onExperimentRead != nil {
            if ruleSet?.audienceNames.contains(experimentState.experiments[slot].name) == true { return (nil, true) }
            experimentState.slots[slot].eligible = true
        }
        guard experimentState.slots[slot].eligible == true else { return (nil, false) }
        if !experimentState.slots[slot].assigned || onExperimentRead != nil { try assign(slot: slot) }
        let variant = experimentState.slots[slot].variant
        guard variant >= 0 else { return (nil, false) }
        if experimentState.decision != nil {
            if experimentState.reads[slot] < 0 { experimentState.readCount += 1 }
            experimentState.reads[slot] = variant
        }
        if !experimentState.slots[slot].exposed { expose(slot: slot) }
        return (experimentState.experiments[slot].variants[variant].name, false)
    }

    /// Fills the experiment's slot: its override, or what exploration serves
    /// (`onExperimentRead`), or the hash of the unit.
    private func assign(slot: Int) throws(FlowScriptError) {
        let experiment = experimentState.experiments[slot]
        let name: String?
        if let forced = experimentState.overrides[experiment.name] {
            name = forced
        } else if let serve = onExperimentRead {
            name = try serve(experiment.name).get()
        } else {
            name = experimentState.unit.flatMap { experiment.variant(forUnit: $0) }
        }
        experimentState.slots[slot].variant = name.flatMap { experiment.variantNames.firstIndex(of: $0) } ?? -1
        experimentState.slots[slot].assigned = true
        experimentState.slots[slot].exposed = false
    }

    /// Reports the exposure of the experiment's assigned variant, unless this (experiment, unit,
    /// variant) was reported before in this process.
    private func expose(slot: Int) {
        experimentState.slots[slot].exposed = true
        let experiment = experimentState.experiments[slot]
        let variant = experiment.variants[experimentState.slots[slot].variant].name
        let unit = experimentState.unit
        // Once per (experiment, unit, variant): the route and kind are those of the first read.
        guard experimentState.exposed.insert(FlowExposure(experiment: experiment.name, variant: variant, unit: unit, route: nil, kind: "")).inserted
        else { return }
        let place = experimentState.decision
        onExposure?(FlowExposure(
            experiment: experiment.name, variant: variant, unit: unit, route: place?.route, kind: place?.kind ?? experimentState.elsewhere))
    }

    /// Facts changed: the audiences answer again.
    func experimentFactsChanged() {
        experimentState.forgetEligibility()
    }

    /// Installs `experiments`, read through the prelude's `readExperiment` (upvalue-free: the
    /// proxy's missing-key handler), and `__flow_native.experimentRead(name [, eligible])`.
    func registerExperimentNative(in vm: LuaVM) throws(FlowScriptError) {
        try vm.register("__flow_native.experimentRead") { [unowned self] arguments, writer in
            let name = try arguments.string(at: 1)
            guard let slot = experimentState.index[name] else {
                // The prelude raises it at the reading rule's line.
                writer.push(nil as String?)
                writer.push(nil as String?)
                writer.push(experimentProblem(name, variant: nil)!)
                return 3
            }
            let eligible: Bool? = arguments.count >= 2 && arguments.type(at: 2) == .boolean ? arguments.isTruthy(at: 2) : nil
            let (variant, ask) = try readExperiment(slot: slot, eligible: eligible)
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
